package dev.ojs.spring.autoconfigure.actuate;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.actuate.OjsHealthIndicator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link OjsHealthIndicator}
 * ({@code ojs} health component).
 * <p>
 * It is opt-in: registered only with {@code management.health.ojs.enabled=true}. Boot's
 * {@code @ConditionalOnEnabledHealthIndicator} is not used because it enables an indicator
 * whose property is absent (it falls back to {@code management.health.defaults.enabled},
 * which defaults to {@code true}).
 */
@AutoConfiguration(afterName = OjsActuatorOrdering.OJS_AUTO_CONFIGURATION,
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass({ JobStore.class, HealthIndicator.class })
@ConditionalOnBooleanProperty("management.health.ojs.enabled")
public final class OjsHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnBean(JobStore.class)
	@ConditionalOnMissingBean(name = { "ojsHealthIndicator", "ojsHealthContributor" })
	OjsHealthIndicator ojsHealthIndicator(JobStore jobStore, ObjectProvider<OjsJobs> jobs) {
		return new OjsHealthIndicator(jobs.getIfAvailable(() -> new OjsJobs(jobStore, null, null)));
	}

}
