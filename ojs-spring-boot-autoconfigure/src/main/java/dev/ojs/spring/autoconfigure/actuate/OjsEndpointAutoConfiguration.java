package dev.ojs.spring.autoconfigure.actuate;

import java.util.List;
import java.util.Optional;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.spring.actuate.OjsEndpoint;
import dev.ojs.worker.Worker;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link OjsEndpoint}
 * ({@code ojs}). Expose it over HTTP with
 * {@code management.endpoints.web.exposure.include=ojs}. Its default access is read-only;
 * allow pausing and resuming queues with {@code management.endpoint.ojs.access=unrestricted}.
 */
@AutoConfiguration(afterName = OjsActuatorOrdering.OJS_AUTO_CONFIGURATION)
@ConditionalOnClass({ JobStore.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(OjsEndpoint.class)
public final class OjsEndpointAutoConfiguration {

	@Bean
	@ConditionalOnBean(JobStore.class)
	@ConditionalOnMissingBean
	OjsEndpoint ojsEndpoint(JobStore jobStore, ObjectProvider<OjsQueues> queues,
			ObjectProvider<OjsJobRegistry> registry, ObjectProvider<Worker> worker) {
		return new OjsEndpoint(queues.getIfAvailable(() -> new OjsQueues(jobStore)),
				registry.getIfAvailable(NoHandlers::new),
				() -> Optional.ofNullable(worker.getIfAvailable()).map(Worker::status).orElse(null));
	}

	/**
	 * The registry of a context that registers no handlers.
	 */
	private static final class NoHandlers implements OjsJobRegistry {

		@Override
		public List<RegisteredJob> jobs() {
			return List.of();
		}

		@Override
		public Optional<RegisteredJob> find(String type) {
			return Optional.empty();
		}

	}

}
