package dev.ojs.spring.autoconfigure.actuate;

import dev.ojs.job.JobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.actuate.DeadLettersEndpoint;
import dev.ojs.spring.actuate.DeadLettersEndpointWebExtension;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link DeadLettersEndpoint}
 * ({@code deadletters}). Its default access is read-only; allow its write and delete
 * operations with {@code management.endpoint.deadletters.access=unrestricted}, and expose
 * it over HTTP with {@code management.endpoints.web.exposure.include=deadletters}.
 */
@AutoConfiguration(afterName = OjsActuatorOrdering.OJS_AUTO_CONFIGURATION)
@ConditionalOnClass({ JobStore.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(DeadLettersEndpoint.class)
public final class DeadLettersEndpointAutoConfiguration {

	@Bean
	@ConditionalOnBean(OjsDeadLetters.class)
	@ConditionalOnMissingBean
	DeadLettersEndpoint deadLettersEndpoint(OjsDeadLetters deadLetters, ObjectProvider<HandlerDirectory> handlers) {
		HandlerDirectory directory = handlers.getIfAvailable();
		return (directory != null) ? new DeadLettersEndpoint(deadLetters, directory::layers)
				: new DeadLettersEndpoint(deadLetters);
	}

	@Bean
	@ConditionalOnBean(DeadLettersEndpoint.class)
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	DeadLettersEndpointWebExtension deadLettersEndpointWebExtension(DeadLettersEndpoint endpoint) {
		return new DeadLettersEndpointWebExtension(endpoint);
	}

}
