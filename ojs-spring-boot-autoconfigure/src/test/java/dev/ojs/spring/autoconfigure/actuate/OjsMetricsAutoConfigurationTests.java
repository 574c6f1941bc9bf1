package dev.ojs.spring.autoconfigure.actuate;

import java.util.Map;

import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.actuate.JobMetricsListener;
import dev.ojs.spring.actuate.QueueDepthMetrics;
import dev.ojs.worker.JobListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link OjsMetricsAutoConfiguration}.
 */
class OjsMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OjsMetricsAutoConfiguration.class))
		.withBean(JobStore.class, () -> {
			JobStore store = mock(JobStore.class);
			given(store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 3L)));
			given(store.deadLetterStats()).willReturn(new DeadLetterStats(0, Map.of(), Map.of(), null, null));
			return store;
		});

	private final ApplicationContextRunner withMetrics = this.runner
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

	@Test
	void bindsWhenAMeterRegistryIsAvailable() {
		this.withMetrics.run((context) -> {
			assertThat(context).hasSingleBean(JobMetricsListener.class).hasSingleBean(QueueDepthMetrics.class);
			assertThat(context.getBeansOfType(JobListener.class)).hasSize(1);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(QueueDepthMetrics.DEPTH).tags("queue", "default", "state", "available").gauge()
				.value()).isEqualTo(3);
		});
	}

	/**
	 * {@code depth-refresh-interval} decides whether the gauge counts again: {@code 0s} on
	 * every read, {@code 1h} keeps the first count.
	 */
	@ParameterizedTest
	@CsvSource({ "0s, 7", "1h, 3" })
	void depthIsCountedAgainOnlyAfterTheRefreshInterval(String interval, double secondRead) {
		this.withMetrics.withPropertyValues("management.metrics.ojs.depth-refresh-interval=" + interval)
			.run((context) -> {
				assertThat(depth(context)).isEqualTo(3);
				given(context.getBean(JobStore.class).countByQueueAndState())
					.willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 7L)));
				assertThat(depth(context)).isEqualTo(secondRead);
			});
	}

	private static double depth(org.springframework.context.ApplicationContext context) {
		return context.getBean(MeterRegistry.class)
			.get(QueueDepthMetrics.DEPTH)
			.tags("queue", "default", "state", "available")
			.gauge()
			.value();
	}

	@Test
	void negativeDepthRefreshIntervalFailsStartupNamingTheProperty() {
		this.withMetrics.withPropertyValues("management.metrics.ojs.depth-refresh-interval=-1s").run((context) -> {
			assertThat(context).hasFailed();
			StringBuilder messages = new StringBuilder();
			for (Throwable ex = context.getStartupFailure(); ex != null; ex = ex.getCause()) {
				messages.append(ex.getMessage()).append('\n');
			}
			assertThat(messages).contains("management.metrics.ojs.depth-refresh-interval")
				.contains("must not be negative")
				.doesNotContain("'refreshInterval'");
		});
	}

	@Test
	void absentWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(JobMetricsListener.class)
			.doesNotHaveBean(QueueDepthMetrics.class));
	}

	@Test
	void absentWithoutMicrometer() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(JobMetricsListener.class)
				.doesNotHaveBean(QueueDepthMetrics.class));
	}

	@Test
	void absentWithoutAJobStore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OjsMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(JobMetricsListener.class));
	}

	@Test
	void backsOffFromUserDefinedBeans() {
		this.withMetrics
			.withBean("customListener", JobMetricsListener.class,
					() -> new JobMetricsListener(new SimpleMeterRegistry(), null))
			.run((context) -> assertThat(context).hasSingleBean(JobMetricsListener.class).hasBean("customListener"));
	}

}
