package dev.ojs.spring.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.spring.RetryDelayCustomizer;
import dev.ojs.worker.JobEventListener;
import dev.ojs.worker.Worker;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the OJS worker: claims and runs the
 * jobs of this application's {@link dev.ojs.spring.OjsJob @OjsJob} handlers. Disabled with
 * {@code ojs.worker.enabled=false}, which leaves an enqueue-only node.
 * <p>
 * The worker is told of outcomes through every {@link JobEventListener} bean, in order
 * (including the {@link ApplicationEventJobEventListener} that publishes Spring events),
 * and asks the {@link RetryDelayCustomizer} beans for custom retry delays.
 * <p>
 * The worker needs the JDBC store's claim, complete, fail, heartbeat and reap operations,
 * so it runs only on a {@link JdbcJobStore}. A user-defined {@link dev.ojs.job.JobStore}
 * bean that is not a {@code JdbcJobStore} therefore leaves the node without a worker, as if
 * it were enqueue-only; the condition evaluation report ({@code --debug} or the
 * {@code conditions} actuator endpoint) lists {@code OjsWorkerAutoConfiguration} as not
 * matched for want of a {@code JdbcJobStore} bean.
 */
@AutoConfiguration(after = OjsAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "ojs.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "ojs.worker.enabled", matchIfMissing = true)
@ConditionalOnBean({ JdbcJobStore.class, OjsJobHandlerRegistry.class })
public final class OjsWorkerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ApplicationEventJobEventListener ojsApplicationEventJobEventListener(ApplicationEventPublisher publisher) {
		return new ApplicationEventJobEventListener(publisher);
	}

	@Bean
	@ConditionalOnMissingBean
	Worker ojsWorker(JdbcJobStore jobStore, OjsJobHandlerRegistry registry, OjsProperties properties,
			ObjectProvider<JobEventListener> listeners, ObjectProvider<RetryDelayCustomizer> delayCustomizers) {
		return new Worker(jobStore, registry.registrations(), properties.workerSettings(),
				CompositeJobEventListener.of(listeners.orderedStream().toList()),
				RetryDelayCustomizers.of(delayCustomizers.orderedStream().toList()));
	}

	@Bean
	@ConditionalOnMissingBean
	OjsWorkerLifecycle ojsWorkerLifecycle(Worker worker) {
		return new OjsWorkerLifecycle(worker);
	}

}
