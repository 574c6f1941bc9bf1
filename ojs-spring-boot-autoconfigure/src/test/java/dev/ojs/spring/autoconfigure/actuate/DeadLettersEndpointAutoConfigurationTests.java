package dev.ojs.spring.autoconfigure.actuate;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.actuate.DeadLettersEndpoint;
import dev.ojs.spring.actuate.DeadLettersEndpointWebExtension;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link DeadLettersEndpointAutoConfiguration}.
 */
class DeadLettersEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(ActuatorTestContexts::applicationConversionService)
		.withConfiguration(AutoConfigurations.of(DeadLettersEndpointAutoConfiguration.class))
		.withBean(OjsDeadLetters.class, () -> new OjsDeadLetters(mock(JobStore.class)));

	@Test
	void notAvailableUnlessExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(DeadLettersEndpoint.class)
			.doesNotHaveBean(DeadLettersEndpointWebExtension.class));
	}

	@Test
	void exposedOverTheWebWithItsWebExtension() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=deadletters")
			.run((context) -> assertThat(context).hasSingleBean(DeadLettersEndpoint.class)
				.hasSingleBean(DeadLettersEndpointWebExtension.class));
	}

	@Test
	void exposedOverJmxOnlyHasNoWebExtension() {
		this.runner
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=deadletters")
			.run((context) -> assertThat(context).hasSingleBean(DeadLettersEndpoint.class)
				.doesNotHaveBean(DeadLettersEndpointWebExtension.class));
	}

	@Test
	void readOnlyAccessStillProvidesTheEndpoint() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=deadletters",
					"management.endpoint.deadletters.access=read-only")
			.run((context) -> assertThat(context).hasSingleBean(DeadLettersEndpoint.class));
	}

	@Test
	void noAccessRemovesTheEndpoint() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=deadletters",
					"management.endpoint.deadletters.access=none")
			.run((context) -> assertThat(context).doesNotHaveBean(DeadLettersEndpoint.class));
	}

	@Test
	void noEndpointWithoutTheDeadLetters() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DeadLettersEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=deadletters")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DeadLettersEndpoint.class));
	}

	@Test
	void backsOffWithoutTheActuator() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=deadletters")
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DeadLettersEndpoint.class));
	}

	@Test
	void backsOffFromUserDefinedBeans() {
		DeadLettersEndpoint endpoint = new DeadLettersEndpoint(new OjsDeadLetters(mock(JobStore.class)));
		DeadLettersEndpointWebExtension extension = new DeadLettersEndpointWebExtension(endpoint);
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=deadletters")
			.withBean("customEndpoint", DeadLettersEndpoint.class, () -> endpoint)
			.withBean("customExtension", DeadLettersEndpointWebExtension.class, () -> extension)
			.run((context) -> {
				assertThat(context).getBean(DeadLettersEndpoint.class).isSameAs(endpoint);
				assertThat(context).getBean(DeadLettersEndpointWebExtension.class).isSameAs(extension);
			});
	}

}
