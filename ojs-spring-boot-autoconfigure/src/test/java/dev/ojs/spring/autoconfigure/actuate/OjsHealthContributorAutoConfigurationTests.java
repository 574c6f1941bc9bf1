package dev.ojs.spring.autoconfigure.actuate;

import java.util.Map;

import dev.ojs.job.JobStore;
import dev.ojs.spring.actuate.OjsHealthIndicator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link OjsHealthContributorAutoConfiguration}.
 */
class OjsHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OjsHealthContributorAutoConfiguration.class))
		.withBean(JobStore.class, () -> {
			JobStore store = mock(JobStore.class);
			given(store.countByQueueAndState()).willReturn(Map.of());
			return store;
		});

	@Test
	void absentByDefault() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(OjsHealthIndicator.class));
	}

	@Test
	void absentEvenWhenHealthIndicatorsAreEnabledByDefault() {
		this.runner.withPropertyValues("management.health.defaults.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(OjsHealthIndicator.class));
	}

	@Test
	void absentWhenDisabled() {
		this.runner.withPropertyValues("management.health.ojs.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(OjsHealthIndicator.class));
	}

	@Test
	void registeredAsOjsWhenEnabled() {
		this.runner.withPropertyValues("management.health.ojs.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(OjsHealthIndicator.class).hasBean("ojsHealthIndicator");
			assertThat(context.getBean(OjsHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void absentWithoutAJobStore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OjsHealthContributorAutoConfiguration.class))
			.withPropertyValues("management.health.ojs.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsHealthIndicator.class));
	}

	@Test
	void absentWithoutSpringBootHealth() {
		this.runner.withPropertyValues("management.health.ojs.enabled=true")
			.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsHealthIndicator.class));
	}

	@Test
	void backsOffFromAUserDefinedIndicator() {
		HealthIndicator custom = () -> Health.up().build();
		this.runner.withPropertyValues("management.health.ojs.enabled=true")
			.withBean("ojsHealthIndicator", HealthIndicator.class, () -> custom)
			.run((context) -> assertThat(context).doesNotHaveBean(OjsHealthIndicator.class)
				.getBean("ojsHealthIndicator")
				.isSameAs(custom));
	}

}
