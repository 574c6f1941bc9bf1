package dev.ojs.spring.autoconfigure.actuate;

import java.util.List;
import java.util.Map;

import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.JobStore;
import dev.ojs.spring.actuate.OjsEndpoint;
import dev.ojs.worker.Worker;
import dev.ojs.worker.WorkerStatus;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link OjsEndpointAutoConfiguration}.
 */
class OjsEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(ActuatorTestContexts::applicationConversionService)
		.withConfiguration(AutoConfigurations.of(OjsEndpointAutoConfiguration.class))
		.withBean(JobStore.class, OjsEndpointAutoConfigurationTests::jobStore);

	@Test
	void notAvailableUnlessExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(OjsEndpoint.class));
	}

	@Test
	void availableWhenExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.run((context) -> assertThat(context).hasSingleBean(OjsEndpoint.class));
	}

	@Test
	void noAccessRemovesTheEndpoint() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs",
				"management.endpoint.ojs.access=none")
			.run((context) -> assertThat(context).doesNotHaveBean(OjsEndpoint.class));
	}

	@Test
	void noEndpointWithoutAJobStore() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OjsEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsEndpoint.class));
	}

	@Test
	void backsOffWithoutTheActuator() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsEndpoint.class));
	}

	@Test
	void withoutAWorkerTheNodeIsEnqueueOnly() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.run((context) -> assertThat(context.getBean(OjsEndpoint.class).ojs().worker().mode())
				.isEqualTo(OjsEndpoint.MODE_ENQUEUE_ONLY));
	}

	@Test
	void showsTheWorkersStatus() {
		Worker worker = mock(Worker.class);
		given(worker.status()).willReturn(new WorkerStatus("node-7", true, Map.of(), Map.of(), List.of()));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.withBean(Worker.class, () -> worker)
			.run((context) -> assertThat(context.getBean(OjsEndpoint.class).ojs().worker().nodeId())
				.isEqualTo("node-7"));
	}

	@Test
	void backsOffFromAUserDefinedEndpoint() {
		OjsEndpoint endpoint = mock(OjsEndpoint.class);
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ojs")
			.withBean("customOjsEndpoint", OjsEndpoint.class, () -> endpoint)
			.run((context) -> assertThat(context).getBean(OjsEndpoint.class).isSameAs(endpoint));
	}

	private static JobStore jobStore() {
		JobStore store = mock(JobStore.class);
		given(store.countByQueueAndState()).willReturn(Map.of());
		given(store.deadLetterStats()).willReturn(new DeadLetterStats(0, Map.of(), Map.of(), null, null));
		return store;
	}

}
