package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.ojs.job.JobState;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.spring.observation.DefaultJobProcessObservationConvention;
import dev.ojs.spring.observation.JobEnqueueContext;
import dev.ojs.spring.observation.JobEnqueueObservationConvention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How {@link OjsAutoConfiguration} and {@link OjsWorkerAutoConfiguration} wire the
 * observation registry, observation conventions and {@link OjsJobListener} beans.
 */
class OjsObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = OjsContexts.onEmbeddedDatabase()
		.withPropertyValues("ojs.worker.poll-interval=50ms", "ojs.worker.shutdown-grace-period=1s")
		.withUserConfiguration(Handlers.class);

	@Test
	void withoutAnObservationRegistryJobsRunUnobservedAndListenersAreTold() {
		this.contextRunner.run((context) -> {
			String id = context.getBean(OjsTemplate.class).enqueue("auto.noop");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(Handlers.class).completed).contains(id));
			assertThat(context.getBean(OjsTemplate.class).getJob(id).orElseThrow().metaJson()).isEqualTo("{}");
		});
	}

	@Test
	void theRegistryBeanObservesEnqueuesAndExecutionsWithTheConventionBeans() {
		this.contextRunner.withUserConfiguration(Observed.class).run((context) -> {
			TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
			OjsTemplate template = context.getBean(OjsTemplate.class);
			String id = template.enqueue("auto.noop");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> template.getJob(id).orElseThrow().state() == JobState.COMPLETED);
			TestObservationRegistryAssert.assertThat(registry)
				.hasAnObservation((observation) -> observation.hasNameEqualTo("custom.enqueue")
					.hasLowCardinalityKeyValue("custom", "auto.noop"))
				.hasAnObservation((observation) -> observation
					.hasNameEqualTo(DefaultJobProcessObservationConvention.NAME)
					.hasLowCardinalityKeyValue("ojs.job.outcome", "success"));
			assertThat(context.getBean(Handlers.class).completed).contains(id);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers implements OjsJobListener {

		final Set<String> completed = ConcurrentHashMap.newKeySet();

		@OjsJob(type = "auto.noop")
		public void noop() {
		}

		@Override
		public void onCompleted(JobCompletedEvent event) {
			this.completed.add(event.getJobId());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Observed {

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

		@Bean
		JobEnqueueObservationConvention customEnqueueConvention() {
			return new JobEnqueueObservationConvention() {

				@Override
				public String getName() {
					return "custom.enqueue";
				}

				@Override
				public KeyValues getLowCardinalityKeyValues(JobEnqueueContext context) {
					return KeyValues.of("custom", context.getType());
				}

			};
		}

	}

}
