package dev.ojs.spring.autoconfigure.actuate;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.actuate.RecurringJobMetricsListener;
import dev.ojs.spring.actuate.RecurringJobsHealthIndicator;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the observability of recurring
 * jobs: the {@link RecurringJobMetricsListener} meters (picked up by the evaluator as one of the
 * context's {@code RecurringJobListener} beans) and, with
 * {@code management.health.ojs.enabled=true} like the other OJS health indicator, the
 * {@link RecurringJobsHealthIndicator} ({@code recurringJobs} health component).
 */
@AutoConfiguration(afterName = { OjsActuatorOrdering.OJS_AUTO_CONFIGURATION,
		OjsActuatorOrdering.OJS_RECURRING_JOBS_AUTO_CONFIGURATION,
				"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" },
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(RecurringJobEvaluator.class)
public final class OjsRecurringJobsMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean({ RecurringJobStore.class, MeterRegistry.class })
	static class RecurringJobMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RecurringJobMetricsListener ojsRecurringJobMetricsListener(MeterRegistry meterRegistry) {
			return new RecurringJobMetricsListener(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	@ConditionalOnBooleanProperty("management.health.ojs.enabled")
	@ConditionalOnBean({ RecurringJobEvaluator.class, OjsRecurringJobs.class })
	static class RecurringJobHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "recurringJobsHealthIndicator")
		RecurringJobsHealthIndicator recurringJobsHealthIndicator(RecurringJobEvaluator evaluator,
				OjsRecurringJobs recurringJobs) {
			return new RecurringJobsHealthIndicator(evaluator, recurringJobs);
		}

	}

}
