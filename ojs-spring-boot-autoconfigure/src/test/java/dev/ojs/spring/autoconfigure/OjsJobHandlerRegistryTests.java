package dev.ojs.spring.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.CustomScopeConfigurer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.context.support.SimpleThreadScope;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.ojs.job.JobStore;
import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.worker.HandlerRegistration;

import static dev.ojs.spring.autoconfigure.OjsContexts.failureMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Discovery, validation and invocation of {@link OjsJob @OjsJob} methods by
 * {@link OjsJobHandlerRegistry}.
 */
class OjsJobHandlerRegistryTests {

	private final ApplicationContextRunner contextRunner = OjsContexts.onEmbeddedDatabase();

	@Test
	void registersHandlersWithTheirAttributesAndEffectivePolicies() {
		this.contextRunner.withBean("configuredJobs", ConfiguredJobs.class)
			.withPropertyValues("ojs.retry.max-attempts=9", "ojs.retry.initial-interval=2s",
					"ojs.visibility-timeout=10m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OjsJobRegistry registry = context.getBean(OjsJobRegistry.class);
				assertThat(registry.jobs()).extracting(RegisteredJob::type).containsExactly("a.configured", "b.inherit");
				RegisteredJob configured = registry.find("a.configured").orElseThrow();
				assertThat(configured.queue()).isEqualTo("emails");
				assertThat(configured.priority()).isEqualTo(5);
				assertThat(configured.concurrency()).isEqualTo(2);
				assertThat(configured.visibilityTimeout()).isEqualTo(Duration.ofMinutes(5));
				assertThat(configured.beanName()).isEqualTo("configuredJobs");
				assertThat(configured.method()).isEqualTo("ConfiguredJobs#configured(String, JobContext, int)");
				assertThat(configured.handlerPolicy()).isEqualTo(RetryPolicy.builder().maxAttempts(5)
					.initialInterval(Duration.ofMillis(500)).backoffCoefficient(1.5).maxInterval(Duration.ofSeconds(10))
					.backoffStrategy(BackoffStrategy.LINEAR).jitter(false).nonRetryableErrors("x.*")
					.onExhaustion(OnExhaustion.DEAD_LETTER).build());
				assertThat(configured.effectivePolicy()).isEqualTo(configured.handlerPolicy().mergedOver(RetryPolicy.DEFAULT).effective());
				RegisteredJob inherit = registry.find("b.inherit").orElseThrow();
				assertThat(inherit.queue()).isEqualTo("default");
				assertThat(inherit.priority()).isZero();
				assertThat(inherit.concurrency()).isZero();
				assertThat(inherit.visibilityTimeout()).isEqualTo(Duration.ofMinutes(10));
				assertThat(inherit.handlerPolicy()).isEqualTo(RetryPolicy.builder().onExhaustion(OnExhaustion.DEAD_LETTER).build());
				assertThat(inherit.effectivePolicy().maxAttempts()).isEqualTo(9);
				assertThat(inherit.effectivePolicy().initialInterval()).isEqualTo(Duration.ofSeconds(2));
				assertThat(inherit.effectivePolicy().onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
				assertThat(inherit.effectivePolicy().maxInterval()).isEqualTo(Duration.ofMinutes(5));
				assertThat(registry.find("unknown")).isEmpty();
				List<HandlerRegistration> registrations = context.getBean(OjsJobHandlerRegistry.class).registrations();
				assertThat(registrations).extracting(HandlerRegistration::type, HandlerRegistration::queue,
						HandlerRegistration::concurrency, HandlerRegistration::visibilityTimeout,
						HandlerRegistration::interruptOnCancel, HandlerRegistration::timeout)
					.containsExactly(
							org.assertj.core.groups.Tuple.tuple("a.configured", "emails", 2, Duration.ofMinutes(5), true,
									Duration.ofSeconds(30)),
							org.assertj.core.groups.Tuple.tuple("b.inherit", "default", 0, null, false, null));
			});
	}

	@Test
	void explicitlyEmptyNonRetryableErrorsOverrideTheApplicationList() {
		this.contextRunner.withBean("nonRetryableJobs", NonRetryableJobs.class)
			.withPropertyValues("ojs.worker.enabled=false", "ojs.retry.non-retryable-errors=java.io.*")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OjsJobRegistry registry = context.getBean(OjsJobRegistry.class);
				assertThat(registry.find("none").orElseThrow().handlerPolicy().nonRetryableErrors()).isEmpty();
				assertThat(registry.find("inherited").orElseThrow().handlerPolicy().nonRetryableErrors()).isNull();
				OjsTemplate template = context.getBean(OjsTemplate.class);
				// spec §8.1: the handler's empty list wins over the application's
				assertThat(template.getJob(template.enqueue("none")).orElseThrow().retryPolicy().nonRetryableErrors())
					.isEmpty();
				assertThat(template.getJob(template.enqueue("inherited")).orElseThrow().retryPolicy().nonRetryableErrors())
					.containsExactly("java.io.*");
			});
	}

	@Test
	void handlerBindsArgumentsAndRethrowsTheMethodsException() throws Exception {
		this.contextRunner.withBean("configuredJobs", ConfiguredJobs.class).run((context) -> {
			HandlerRegistration registration = registration(context.getBean(OjsJobHandlerRegistry.class), "a.configured");
			TestJobs.TestAttempt attempt = TestJobs.attempt("a.configured", "[\"hi\", 3]");
			registration.handler().handle(attempt);
			ConfiguredJobs jobs = context.getBean(ConfiguredJobs.class);
			assertThat(jobs.calls).containsExactly("hi x3 attempt 1");
			assertThat(attempt.heartbeats).isEqualTo(1);
			assertThatIOException()
				.isThrownBy(() -> registration.handler().handle(TestJobs.attempt("a.configured", "[\"fail\", 1]")))
				.withMessage("disk full");
			assertThat(registration.errorClassifier()
				.classify(attempt.job(), new IOException("disk full")).code()).isEqualTo(ErrorCode.DISCARD);
		});
	}

	@Test
	void transactionalHandlerRunsThroughItsProxy() {
		this.contextRunner.withUserConfiguration(TransactionalConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			TransactionalJobs bean = context.getBean(TransactionalJobs.class);
			assertThat(AopUtils.isCglibProxy(bean)).isTrue();
			assertThat(context.getBean(OjsJobRegistry.class).find("tx.job")).isPresent();
			registration(context.getBean(OjsJobHandlerRegistry.class), "tx.job").handler()
				.handle(TestJobs.attempt("tx.job", "[\"x\"]"));
			assertThat(bean.transactionActive()).containsExactly(true);
		});
	}

	@Test
	void handlerBeanMayDependOnTheTemplate() {
		this.contextRunner.withBean(EnqueuingJobs.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(OjsJobRegistry.class).find("enqueuing")).isPresent();
			assertThat(context.getBean(EnqueuingJobs.class).template).isSameAs(context.getBean(OjsTemplate.class));
		});
	}

	@Test
	void enqueueOnlyNodeStillValidatesHandlers() {
		this.contextRunner.withPropertyValues("ojs.worker.enabled=false")
			.withBean("badJobs", BadDurationJobs.class)
			.run((context) -> assertThat(failureMessages(context)).contains("initialInterval"));
	}

	@Test
	void duplicateTypeFailsStartupNamingBothMethods() {
		this.contextRunner.withBean("first", ConfiguredJobs.class)
			.withBean("second", DuplicateJobs.class)
			.run((context) -> assertThat(failureMessages(context)).contains("Duplicate @OjsJob type 'b.inherit'")
				.contains("ConfiguredJobs#inherit() of bean 'first'")
				.contains("DuplicateJobs#again() of bean 'second'"));
	}

	@ParameterizedTest
	@ValueSource(classes = { BadDurationJobs.class, BadCoefficientJobs.class, BadMaxAttemptsJobs.class,
			BadIntervalsJobs.class, BadVisibilityJobs.class, ZeroTimeoutJobs.class, BadTimeoutJobs.class, BadConcurrencyJobs.class, ConflictingListsJobs.class,
			BlankTypeJobs.class, UppercaseTypeJobs.class, BlankQueueJobs.class, SpacedQueueJobs.class, BlankNonRetryableJobs.class, InheritAmongNonRetryableJobs.class })
	void invalidAttributeFailsStartupNamingBeanMethodAndAttribute(Class<? extends Invalid> type) throws Exception {
		Invalid invalid = type.getDeclaredConstructor().newInstance();
		this.contextRunner.withBean("invalidJobs", Invalid.class, () -> invalid)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method " + type.getSimpleName() + "#job() of bean 'invalidJobs'")
				.contains("'" + invalid.attribute() + "'"));
	}

	@Test
	void maxIntervalBelowTheApplicationInitialIntervalFailsAfterMerging() {
		this.contextRunner.withPropertyValues("ojs.retry.initial-interval=1m")
			.withBean("jobs", ShortMaxIntervalJobs.class)
			.run((context) -> assertThat(failureMessages(context)).contains("attribute 'maxInterval'")
				.contains("after merging over ojs.retry.*"));
	}

	@Test
	void unbindableParameterFailsStartup() {
		this.contextRunner.withBean("jobs", UnbindableJobs.class)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method UnbindableJobs#job(Runnable) of bean 'jobs'")
				.contains("parameter 0 (java.lang.Runnable task) cannot be bound"));
	}

	@Test
	void parameterWithoutAUsableCreatorFailsStartup() {
		this.contextRunner.withBean("jobs", NoCreatorJobs.class)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method NoCreatorJobs#job(NoCreatorPayload) of bean 'jobs'")
				.contains("has no usable creator"));
	}

	@Test
	void methodHiddenByInterfaceProxyFailsStartup() {
		this.contextRunner.withUserConfiguration(InterfaceProxyConfiguration.class)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method InterfaceProxiedJobs#job() of bean 'interfaceProxiedJobs'")
				.contains("not found in any interface(s) of the exposed proxy type"));
	}

	@Test
	void handlersOfHandMadeProxyFailStartup() {
		this.contextRunner.withBean("jobs", Runnable.class, () -> {
			ProxyFactory factory = new ProxyFactory(new InterfaceProxiedJobs());
			factory.setInterfaces(Runnable.class);
			return (Runnable) factory.getProxy();
		})
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob methods of bean 'jobs' (" + InterfaceProxiedJobs.class.getName()
						+ ") are hidden by its proxy"));
	}

	@Test
	void handlerOnPrototypeBeanFailsStartup() {
		this.contextRunner.withBean("prototypeJobs", DuplicateJobs.class, DuplicateJobs::new,
				(definition) -> definition.setScope(BeanDefinition.SCOPE_PROTOTYPE))
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method DuplicateJobs#again() of bean 'prototypeJobs' needs a singleton bean")
				.contains("scope is 'prototype'"));
	}

	@Test
	void handlerOnScopedProxyBeanFailsStartup() {
		this.contextRunner.withUserConfiguration(ThreadScopedConfiguration.class)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method DuplicateJobs#again() of bean 'threadJobs' needs a singleton bean")
				.contains("scope is 'thread'"));
	}

	@Test
	void handlerOfBeanDeclaredWithAnInterfaceTypeFailsStartupWhenMissed() {
		this.contextRunner.withUserConfiguration(InterfaceTypedBeanConfiguration.class)
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method InterfaceProxiedJobs#job() of bean 'interfaceTyped' was not registered")
				.contains("declare the bean with its class"));
	}

	@Test
	void handlerOfSingletonWithoutDefinitionFailsStartup() {
		this.contextRunner
			.withInitializer((context) -> context.getBeanFactory().registerSingleton("manual", new DuplicateJobs()))
			.run((context) -> assertThat(failureMessages(context))
				.contains("@OjsJob method DuplicateJobs#again() of bean 'manual' was not registered"));
	}

	private static HandlerRegistration registration(OjsJobHandlerRegistry registry, String type) {
		return registry.registrations().stream().filter((r) -> r.type().equals(type)).findFirst().orElseThrow();
	}

	static class ConfiguredJobs {

		final List<String> calls = new ArrayList<>();

		@OjsJob(type = "a.configured", queue = "emails", priority = 5, concurrency = 2, visibilityTimeout = "5m",
				maxAttempts = 5, initialInterval = "500ms", backoffCoefficient = 1.5, maxInterval = "PT10S",
				backoff = OjsJob.Backoff.LINEAR, jitter = OjsJob.Jitter.DISABLED, nonRetryableErrors = "x.*",
				onExhaustion = OjsJob.Exhaustion.DEAD_LETTER, discardOn = IOException.class, interruptOnCancel = true,
				timeout = "PT30S")
		public void configured(String text, JobContext context, int times) throws IOException {
			if (text.equals("fail")) {
				throw new IOException("disk full");
			}
			context.heartbeat();
			this.calls.add(text + " x" + times + " attempt " + context.attempt());
		}

		@OjsJob(type = "b.inherit", onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
		void inherit() {
		}

	}

	static class NonRetryableJobs {

		@OjsJob(type = "none", nonRetryableErrors = {})
		void none() {
		}

		@OjsJob(type = "inherited")
		void inherited() {
		}

	}

	static class DuplicateJobs {

		@OjsJob(type = "b.inherit")
		void again() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true)
	static class TransactionalConfiguration {

		@Bean
		TransactionalJobs transactionalJobs() {
			return new TransactionalJobs();
		}

	}

	static class TransactionalJobs {

		private final List<Boolean> transactionActive = new ArrayList<>();

		@Transactional
		@OjsJob(type = "tx.job")
		public void run(String arg) {
			this.transactionActive.add(TransactionSynchronizationManager.isActualTransactionActive());
		}

		public List<Boolean> transactionActive() {
			return this.transactionActive;
		}

	}

	static class EnqueuingJobs {

		final OjsTemplate template;

		EnqueuingJobs(OjsTemplate template) {
			this.template = template;
		}

		@OjsJob(type = "enqueuing")
		void run() {
		}

	}

	interface Invalid {

		String attribute();

	}

	static class BadDurationJobs implements Invalid {

		@OjsJob(type = "bad", initialInterval = "soon")
		void job() {
		}

		public String attribute() {
			return "initialInterval";
		}

	}

	static class BadCoefficientJobs implements Invalid {

		@OjsJob(type = "bad", backoffCoefficient = 0.5)
		void job() {
		}

		public String attribute() {
			return "backoffCoefficient";
		}

	}

	static class BadMaxAttemptsJobs implements Invalid {

		@OjsJob(type = "bad", maxAttempts = -5)
		void job() {
		}

		public String attribute() {
			return "maxAttempts";
		}

	}

	static class BadIntervalsJobs implements Invalid {

		@OjsJob(type = "bad", initialInterval = "PT10S", maxInterval = "1s")
		void job() {
		}

		public String attribute() {
			return "maxInterval";
		}

	}

	static class BadVisibilityJobs implements Invalid {

		@OjsJob(type = "bad", visibilityTimeout = "0s")
		void job() {
		}

		public String attribute() {
			return "visibilityTimeout";
		}

	}

	static class ZeroTimeoutJobs implements Invalid {

		@OjsJob(type = "bad", timeout = "PT0S")
		void job() {
		}

		public String attribute() {
			return "timeout";
		}

	}

	static class BadTimeoutJobs implements Invalid {

		@OjsJob(type = "bad", timeout = "thirty seconds")
		void job() {
		}

		public String attribute() {
			return "timeout";
		}

	}

	static class BadConcurrencyJobs implements Invalid {

		@OjsJob(type = "bad", concurrency = -1)
		void job() {
		}

		public String attribute() {
			return "concurrency";
		}

	}

	static class ConflictingListsJobs implements Invalid {

		@OjsJob(type = "bad", failOn = IllegalStateException.class, deadLetterOn = IllegalStateException.class)
		void job() {
		}

		public String attribute() {
			return "failOn";
		}

	}

	static class BlankTypeJobs implements Invalid {

		@OjsJob(type = " ")
		void job() {
		}

		public String attribute() {
			return "type";
		}

	}

	/** Decision 6: a type no enqueue accepts fails start-up, not the first enqueue. */
	static class UppercaseTypeJobs implements Invalid {

		@OjsJob(type = "sendWelcome")
		void job() {
		}

		public String attribute() {
			return "type";
		}

	}

	static class SpacedQueueJobs implements Invalid {

		@OjsJob(type = "spaced", queue = "my queue")
		void job() {
		}

		public String attribute() {
			return "queue";
		}

	}

	static class BlankQueueJobs implements Invalid {

		@OjsJob(type = "bad", queue = "  ")
		void job() {
		}

		public String attribute() {
			return "queue";
		}

	}

	static class BlankNonRetryableJobs implements Invalid {

		@OjsJob(type = "bad", nonRetryableErrors = { "a.*", "" })
		void job() {
		}

		public String attribute() {
			return "nonRetryableErrors";
		}

	}

	static class InheritAmongNonRetryableJobs implements Invalid {

		@OjsJob(type = "bad", nonRetryableErrors = { OjsJob.INHERIT_LIST, "a.*" })
		void job() {
		}

		public String attribute() {
			return "nonRetryableErrors";
		}

	}

	static class ShortMaxIntervalJobs {

		@OjsJob(type = "short", maxInterval = "10s")
		void job() {
		}

	}

	static class UnbindableJobs {

		@OjsJob(type = "unbindable")
		void job(Runnable task) {
		}

	}

	static class NoCreatorJobs {

		@OjsJob(type = "no_creator")
		void job(MethodArgumentBinderTests.NoCreatorPayload payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ThreadScopedConfiguration {

		@Bean
		static CustomScopeConfigurer threadScope() {
			CustomScopeConfigurer configurer = new CustomScopeConfigurer();
			configurer.addScope("thread", new SimpleThreadScope());
			return configurer;
		}

		@Bean
		@Scope(scopeName = "thread", proxyMode = ScopedProxyMode.TARGET_CLASS)
		DuplicateJobs threadJobs() {
			return new DuplicateJobs();
		}

	}

	/**
	 * The registry discovers handlers while {@code early} is created, before
	 * {@code interfaceTyped} exists, so only its declared type {@link Runnable} is known then.
	 */
	@Configuration(proxyBeanMethods = false)
	static class InterfaceTypedBeanConfiguration {

		@Bean
		Object early(OjsJobRegistry registry) {
			return registry.jobs();
		}

		@Bean
		Runnable interfaceTyped() {
			return new InterfaceProxiedJobs();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = false)
	static class InterfaceProxyConfiguration {

		@Bean
		InterfaceProxiedJobs interfaceProxiedJobs() {
			return new InterfaceProxiedJobs();
		}

	}

	static class InterfaceProxiedJobs implements Runnable {

		@Override
		@Transactional
		public void run() {
		}

		@OjsJob(type = "hidden")
		public void job() {
		}

	}

}
