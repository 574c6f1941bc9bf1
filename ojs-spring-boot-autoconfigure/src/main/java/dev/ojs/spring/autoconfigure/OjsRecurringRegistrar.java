package dev.ojs.spring.autoconfigure;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
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
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobValidationException;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsRecurring;
import dev.ojs.spring.OjsRecurringJobs;

/**
 * Registers the {@link OjsRecurring @OjsRecurring} recurring jobs of this application's beans once
 * every singleton exists (CRON-26), and disables those it declared before but no longer
 * declares. Placeholders in {@code cron}, {@code zone}, {@code enabled} and {@code retry}
 * are resolved against the {@link Environment}. A recurring job on a method without
 * {@link OjsJob @OjsJob}, or with an invalid attribute, fails start-up naming the method and
 * the field.
 */
class OjsRecurringRegistrar implements SmartInitializingSingleton, BeanFactoryAware {

	private final OjsRecurringJobs recurringJobs;

	private final Environment environment;

	private final JsonMapper jsonMapper;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	OjsRecurringRegistrar(OjsRecurringJobs recurringJobs, Environment environment, JsonMapper jsonMapper) {
		this.recurringJobs = recurringJobs;
		this.environment = environment;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.recurringJobs.reconcile(declared());
	}

	private List<RecurringJobDefinition> declared() {
		List<RecurringJobDefinition> recurringJobs = new ArrayList<>();
		if (this.beanFactory == null) {
			return recurringJobs;
		}
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = this.beanFactory.getMergedBeanDefinition(beanName);
			Class<?> type = targetClass(beanName, definition);
			if (definition.isAbstract() || type == null || !AnnotationUtils.isCandidateClass(type, OjsRecurring.class)) {
				continue;
			}
			Map<Method, OjsRecurring> methods = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<OjsRecurring>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, OjsRecurring.class));
			methods.forEach((method, recurring) -> recurringJobs.add(definition(beanName, method, recurring)));
		}
		return recurringJobs;
	}

	private RecurringJobDefinition definition(String beanName, Method method, OjsRecurring recurring) {
		String description = "@OjsRecurring method " + ClassUtils.getUserClass(method.getDeclaringClass()).getSimpleName()
				+ "#" + method.getName() + " of bean '" + beanName + "'";
		OjsJob job = AnnotatedElementUtils.findMergedAnnotation(method, OjsJob.class);
		if (job == null) {
			throw new BeanInitializationException(description
					+ " needs @OjsJob: its occurrences enqueue that handler's jobs");
		}
		try {
			String retry = resolve(recurring.retry());
			return new RecurringJobDefinition(recurring.name(), resolve(recurring.cron()), resolve(recurring.zone()),
					job.type(), args(resolve(recurring.args())), "{}", null, null, retry.isBlank() ? null
					: validated(retry), recurring.overlap(), enabled(resolve(recurring.enabled())),
					recurring.description().isBlank() ? null : recurring.description(), this.recurringJobs.application(),
					true);
		}
		catch (IllegalArgumentException ex) {
			throw new BeanInitializationException(description + ": " + ex.getMessage(), ex);
		}
	}

	private String resolve(String value) {
		return this.environment.resolveRequiredPlaceholders(value);
	}

	private static RetryPolicy validated(String json) {
		RetryPolicy policy = RetryPolicy.parsePartial(json);
		policy.effective();
		return policy;
	}

	private static boolean enabled(String value) {
		return switch (value.strip().toLowerCase(Locale.ROOT)) {
			case "true" -> true;
			case "false" -> false;
			default -> throw new RecurringJobValidationException("enabled",
					"'" + value + "' is neither true nor false");
		};
	}

	private String args(String json) {
		JsonNode node;
		try {
			node = this.jsonMapper.readTree(json);
		}
		catch (RuntimeException ex) {
			throw new RecurringJobValidationException("args", "not JSON: " + json);
		}
		if (!node.isArray()) {
			throw new RecurringJobValidationException("args", "must be a JSON array (CRON-05): " + json);
		}
		return this.jsonMapper.writeValueAsString(node);
	}

	private @Nullable Class<?> targetClass(String beanName, BeanDefinition definition) {
		Class<?> type = (Class<?>) definition.getAttribute(AutoProxyUtils.ORIGINAL_TARGET_CLASS_ATTRIBUTE);
		if (type == null) {
			try {
				type = this.beanFactory.getType(beanName, false);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}
		return (type != null) ? ClassUtils.getUserClass(type) : null;
	}

}
