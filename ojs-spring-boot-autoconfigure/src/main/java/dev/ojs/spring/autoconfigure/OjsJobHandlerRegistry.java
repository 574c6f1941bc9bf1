package dev.ojs.spring.autoconfigure;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.JobErrorClassifier;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.spring.observation.JobProcessObservationConvention;
import dev.ojs.worker.HandlerRegistration;
import dev.ojs.worker.JobHandler;

/**
 * Finds the {@link OjsJob @OjsJob} methods of the application's singleton beans and turns
 * them into worker {@link HandlerRegistration registrations}.
 * <p>
 * Methods are found on each bean's target class, from the bean definitions, without
 * creating beans; the bean itself (a proxy, when the bean is proxied) is looked up when its
 * handler first runs, so handler beans may freely depend on {@link OjsTemplate}. Once all
 * singletons exist, every handler is resolved against its bean, so a method that a proxy
 * does not expose fails start-up, and every singleton's ultimate target class is checked
 * for {@code @OjsJob} methods that were not registered (a bean whose class its definition
 * does not reveal), which fail start-up too. So do a handler on a bean that is not a
 * singleton (prototype, request, session or any other scope), a duplicate job type, an
 * unparseable attribute and a parameter that cannot be bound.
 */
public class OjsJobHandlerRegistry implements OjsJobRegistry, BeanFactoryAware, SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(OjsJobHandlerRegistry.class);

	private final RetryPolicy applicationPolicy;

	private final Duration visibilityTimeout;

	private final JsonMapper jsonMapper;

	private final Supplier<List<JobErrorClassifier>> classifiers;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private volatile @Nullable Map<String, Handler> handlers;

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private @Nullable JobProcessObservationConvention observationConvention;

	private JobSizeLimits sizeLimits = JobSizeLimits.DEFAULTS;

	/**
	 * @param applicationPolicy the application's default policy (spec defaults &lt;
	 * {@code ojs.retry.*})
	 * @param visibilityTimeout the application's default visibility timeout
	 * @param jsonMapper binds job arguments to parameters
	 * @param classifiers the {@link JobErrorClassifier} beans, in order (asked lazily)
	 */
	public OjsJobHandlerRegistry(RetryPolicy applicationPolicy, Duration visibilityTimeout, JsonMapper jsonMapper,
			Supplier<List<JobErrorClassifier>> classifiers) {
		this.applicationPolicy = applicationPolicy.effective();
		this.visibilityTimeout = visibilityTimeout;
		this.jsonMapper = jsonMapper;
		this.classifiers = SingletonSupplier.of(classifiers);
	}

	/** The most a handler method's result may hold ({@link JobSizeLimits#DEFAULTS} unless set). */
	public void setSizeLimits(JobSizeLimits sizeLimits) {
		this.sizeLimits = sizeLimits;
	}

	/**
	 * Observes every attempt of the handlers in this registry
	 * ({@link dev.ojs.spring.observation.OjsObservationDocumentation#JOB_PROCESS});
	 * {@link ObservationRegistry#NOOP} (the default) observes none. Set before the handlers
	 * are first used.
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = observationRegistry;
	}

	/**
	 * The convention of attempt observations, instead of
	 * {@link dev.ojs.spring.observation.DefaultJobProcessObservationConvention}. Set before
	 * the handlers are first used.
	 */
	public void setObservationConvention(@Nullable JobProcessObservationConvention observationConvention) {
		this.observationConvention = observationConvention;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		Assert.isInstanceOf(ConfigurableListableBeanFactory.class, beanFactory);
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public List<RegisteredJob> jobs() {
		return handlers().values().stream().map(Handler::job).sorted(Comparator.comparing(RegisteredJob::type)).toList();
	}

	@Override
	public Optional<RegisteredJob> find(String type) {
		return Optional.ofNullable(handlers().get(type)).map(Handler::job);
	}

	/** The worker registrations of every handler, sorted by type. */
	public List<HandlerRegistration> registrations() {
		return handlers().values().stream().map(Handler::registration)
			.sorted(Comparator.comparing(HandlerRegistration::type)).toList();
	}

	@Override
	public void afterSingletonsInstantiated() {
		checkEverySingletonsHandlersRegistered();
		for (Handler handler : handlers().values()) {
			try {
				handler.handler().resolveTarget();
			}
			catch (RuntimeException ex) {
				throw new BeanInitializationException(handler.describe() + ": " + ex.getMessage(), ex);
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("OJS job handlers: " + handlers().keySet());
		}
	}

	/**
	 * Handlers are found from bean definitions; a bean whose class is only known once it is
	 * created (a {@code @Bean} method declared with an interface return type, a proxy made by
	 * hand, a singleton registered without a definition) may have been missed. Every
	 * singleton's ultimate target class is checked: an {@code @OjsJob} method that is not
	 * registered fails start-up rather than being silently ignored.
	 */
	private void checkEverySingletonsHandlersRegistered() {
		Map<String, Handler> handlers = handlers();
		Set<Class<?>> withoutHandlers = new HashSet<>();
		for (String beanName : this.beanFactory.getSingletonNames()) {
			Object bean = this.beanFactory.getSingleton(beanName);
			if (bean == null) {
				continue;
			}
			Class<?> targetClass = ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
			if (withoutHandlers.contains(targetClass) || !AnnotationUtils.isCandidateClass(targetClass, OjsJob.class)) {
				continue;
			}
			Map<Method, OjsJob> methods = findHandlerMethods(targetClass);
			if (methods.isEmpty()) {
				withoutHandlers.add(targetClass);
			}
			methods.forEach((method, annotation) -> {
				Handler handler = handlers.get(annotation.type());
				if (handler == null || !handler.job().beanName().equals(beanName)) {
					throw new BeanInitializationException(unregistered(beanName, bean, targetClass, method));
				}
			});
		}
	}

	private static String unregistered(String beanName, Object bean, Class<?> targetClass, Method method) {
		String description = "@OjsJob method " + describe(method) + " of bean '" + beanName + "' was not registered: ";
		if (AopUtils.isAopProxy(bean)) {
			return description + "@OjsJob methods of bean '" + beanName + "' (" + targetClass.getName()
					+ ") are hidden by its proxy " + bean.getClass().getName()
					+ ": declare the bean with its target type, or use class-based proxies";
		}
		return description + "its class " + targetClass.getName()
				+ " was not known from the bean's definition when handlers were discovered (for example a @Bean "
				+ "method declared with an interface or superclass return type, or a singleton registered without "
				+ "a definition): declare the bean with its class";
	}

	private static Map<Method, OjsJob> findHandlerMethods(Class<?> type) {
		return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<OjsJob>) (method) -> AnnotatedElementUtils
			.findMergedAnnotation(method, OjsJob.class));
	}

	private Map<String, Handler> handlers() {
		Map<String, Handler> handlers = this.handlers;
		if (handlers == null) {
			synchronized (this) {
				handlers = this.handlers;
				if (handlers == null) {
					handlers = discover();
					this.handlers = handlers;
				}
			}
		}
		return handlers;
	}

	private Map<String, Handler> discover() {
		Assert.state(this.beanFactory != null, "No BeanFactory");
		Map<String, Handler> handlers = new LinkedHashMap<>();
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = this.beanFactory.getMergedBeanDefinition(beanName);
			if (definition.isAbstract() || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = targetClass(beanName, definition);
			if (type == null || !AnnotationUtils.isCandidateClass(type, OjsJob.class)) {
				continue;
			}
			findHandlerMethods(type).forEach((method, annotation) -> {
				if (!definition.isSingleton()) {
					throw new BeanInitializationException(notSingleton(beanName, definition, method));
				}
				Handler handler = createHandler(beanName, method, annotation);
				Handler existing = handlers.putIfAbsent(handler.job().type(), handler);
				if (existing != null) {
					throw new BeanInitializationException("Duplicate @OjsJob type '" + handler.job().type() + "': "
							+ existing.describe() + " and " + handler.describe());
				}
			});
		}
		return Map.copyOf(handlers);
	}

	/**
	 * The worker calls one instance of a handler bean for every job, on its own threads,
	 * outside any request or session: a bean of another scope cannot be a handler.
	 */
	private static String notSingleton(String beanName, BeanDefinition definition, Method method) {
		String name = ScopedProxyUtils.isScopedTarget(beanName) ? ScopedProxyUtils.getOriginalBeanName(beanName)
				: beanName;
		return "@OjsJob method " + describe(method) + " of bean '" + name + "' needs a singleton bean, but the bean's "
				+ "scope is '" + definition.getScope() + "': the worker calls one instance for every job, outside "
				+ "any request or session; make the bean a singleton or move the method to a singleton bean";
	}

	private @Nullable Class<?> targetClass(String beanName, BeanDefinition definition) {
		try {
			Class<?> type = (Class<?>) definition.getAttribute(AutoProxyUtils.ORIGINAL_TARGET_CLASS_ATTRIBUTE);
			if (type == null) {
				type = this.beanFactory.getType(beanName, false);
			}
			return (type != null) ? ClassUtils.getUserClass(type) : null;
		}
		catch (RuntimeException ex) {
			logger.debug("Could not resolve type of bean '" + beanName + "'", ex);
			return null;
		}
	}

	private Handler createHandler(String beanName, Method method, OjsJob annotation) {
		String description = "@OjsJob method " + describe(method) + " of bean '" + beanName + "'";
		OjsJobAttributes attributes;
		MethodArgumentBinder binder;
		ExceptionCodes codes;
		try {
			attributes = OjsJobAttributes.of(annotation, this.applicationPolicy, this.visibilityTimeout, beanName,
					describe(method));
			binder = new MethodArgumentBinder(method, this.jsonMapper);
			codes = ExceptionCodes.of(annotation);
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(description + ": " + ex.getMessage(), ex);
		}
		RegisteredJob job = attributes.job();
		MethodJobHandler handler = new MethodJobHandler(method, binder, () -> this.beanFactory.getBean(beanName),
				this.jsonMapper, () -> this.sizeLimits);
		JobHandler observed = new ObservedJobHandler(handler, this.observationRegistry, this.observationConvention,
				this.jsonMapper);
		HandlerRegistration registration = new HandlerRegistration(job.type(), job.queue(), job.concurrency(),
				attributes.handlerVisibilityTimeout(), observed, new MethodErrorClassifier(codes, this.classifiers),
				job.effectivePolicy(), annotation.interruptOnCancel(), attributes.timeout());
		return new Handler(job, registration, handler, description);
	}

	/** E.g. {@code EmailJobs#sendWelcome(String, int)}. */
	static String describe(Method method) {
		List<String> parameters = new ArrayList<>();
		for (Class<?> type : method.getParameterTypes()) {
			parameters.add(type.getSimpleName());
		}
		return ClassUtils.getUserClass(method.getDeclaringClass()).getSimpleName() + "#" + method.getName() + "("
				+ String.join(", ", parameters) + ")";
	}

	private record Handler(RegisteredJob job, HandlerRegistration registration, MethodJobHandler handler,
			String describe) {
	}

}
