package dev.ojs.spring.autoconfigure.actuate;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.actuate.RecurringJobsEndpoint;
import dev.ojs.spring.actuate.RecurringJobsEndpointWebExtension;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link RecurringJobsEndpoint}
 * ({@code recurringjobs}). Its default access is read-only; allow pause, resume and trigger
 * with {@code management.endpoint.recurringjobs.access=unrestricted}, and expose it over
 * HTTP with {@code management.endpoints.web.exposure.include=recurringjobs}.
 */
@AutoConfiguration(afterName = { OjsActuatorOrdering.OJS_AUTO_CONFIGURATION,
		OjsActuatorOrdering.OJS_RECURRING_JOBS_AUTO_CONFIGURATION })
@ConditionalOnClass({ JobStore.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(RecurringJobsEndpoint.class)
public final class RecurringJobsEndpointAutoConfiguration {

	@Bean
	@ConditionalOnBean(OjsRecurringJobs.class)
	@ConditionalOnMissingBean
	RecurringJobsEndpoint recurringJobsEndpoint(OjsRecurringJobs recurringJobs) {
		return new RecurringJobsEndpoint(recurringJobs);
	}

	@Bean
	@ConditionalOnBean(RecurringJobsEndpoint.class)
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	RecurringJobsEndpointWebExtension recurringJobsEndpointWebExtension(RecurringJobsEndpoint endpoint) {
		return new RecurringJobsEndpointWebExtension(endpoint);
	}

}
