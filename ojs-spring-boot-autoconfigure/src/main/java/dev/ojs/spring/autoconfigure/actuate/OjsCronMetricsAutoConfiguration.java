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

import dev.ojs.cron.CronEvaluator;
import dev.ojs.cron.CronStore;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.actuate.CronMetricsListener;
import dev.ojs.spring.actuate.RecurringJobsHealthIndicator;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the observability of recurring
 * jobs: the {@link CronMetricsListener} meters (picked up by the evaluator as one of the
 * context's {@code CronEventListener} beans) and, with
 * {@code management.health.ojs.enabled=true} like the other OJS health indicator, the
 * {@link RecurringJobsHealthIndicator} ({@code recurringJobs} health component).
 */
@AutoConfiguration(afterName = { OjsActuatorOrdering.OJS_AUTO_CONFIGURATION, OjsActuatorOrdering.OJS_CRON_AUTO_CONFIGURATION,
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" },
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(CronEvaluator.class)
public final class OjsCronMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean({ CronStore.class, MeterRegistry.class })
	static class CronMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		CronMetricsListener ojsCronMetricsListener(MeterRegistry meterRegistry) {
			return new CronMetricsListener(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	@ConditionalOnBooleanProperty("management.health.ojs.enabled")
	@ConditionalOnBean({ CronEvaluator.class, OjsRecurringJobs.class })
	static class CronHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "recurringJobsHealthIndicator")
		RecurringJobsHealthIndicator recurringJobsHealthIndicator(CronEvaluator evaluator,
				OjsRecurringJobs recurringJobs) {
			return new RecurringJobsHealthIndicator(evaluator, recurringJobs);
		}

	}

}
