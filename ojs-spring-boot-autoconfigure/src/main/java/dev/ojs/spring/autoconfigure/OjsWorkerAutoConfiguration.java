package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.ojs.job.JobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.OjsWorker;
import dev.ojs.spring.RetryDelayCustomizer;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.worker.JobListener;
import dev.ojs.worker.Worker;
import dev.ojs.worker.WorkerStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the OJS worker: claims and runs the
 * jobs of this application's {@link dev.ojs.spring.OjsJob @OjsJob} handlers. Disabled with
 * {@code ojs.worker.enabled=false}, which leaves an enqueue-only node. The {@link OjsWorker}
 * bean starts the worker with the context unless {@code ojs.worker.auto-startup=false}.
 * <p>
 * The worker is told of outcomes through every engine-level {@link JobListener} bean
 * (such as the metrics), in order, then through every {@link OjsJobListener} bean, in order
 * (including the {@link ApplicationEventJobListener} that publishes Spring events), and
 * asks the {@link RetryDelayCustomizer} beans for custom retry delays.
 * <p>
 * The worker runs on the {@link JobStore} bean, which must also be a {@link WorkerStore}
 * (as the {@link dev.ojs.jdbc.JdbcJobStore} is): a store that cannot claim jobs fails
 * start-up with a message that says so, rather than leaving a node that never runs a job.
 */
@AutoConfiguration(after = OjsAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "ojs.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "ojs.worker.enabled", matchIfMissing = true)
@ConditionalOnBean({ JobStore.class, OjsJobHandlerRegistry.class })
public final class OjsWorkerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ApplicationEventJobListener ojsApplicationEventJobListener(ApplicationContext context) {
		return new ApplicationEventJobListener(context);
	}

	@Bean
	@ConditionalOnMissingBean
	Worker ojsWorker(JobStore jobStore, OjsJobHandlerRegistry registry, OjsProperties properties,
			ObjectProvider<JobListener> listeners, ObjectProvider<OjsJobListener> jobListeners,
			ObjectProvider<RetryDelayCustomizer> delayCustomizers, HandlerDirectory handlers) {
		if (!(jobStore instanceof WorkerStore workerStore)) {
			throw new IllegalStateException("The job store " + jobStore.getClass().getName()
					+ " cannot run a worker: it does not implement " + WorkerStore.class.getName()
					+ ". Implement it, or set ojs.worker.enabled=false to run this node enqueue-only.");
		}
		List<JobListener> outcomeListeners = new ArrayList<>(listeners.orderedStream().toList());
		JobListener dispatcher = OjsJobListenerAdapter.of(jobListeners.orderedStream().toList(),
				(job) -> JobInfo.of(job, handlers.layers(job)));
		if (dispatcher != JobListener.NONE) {
			outcomeListeners.add(dispatcher);
		}
		return new Worker(workerStore, registry.registrations(), properties.workerSettings(),
				CompositeJobListener.of(outcomeListeners),
				RetryDelayCustomizers.of(delayCustomizers.orderedStream().toList()));
	}

	/** Publishes this node's handlers once the context is ready, so that other nodes route and retry their jobs alike. */
	@Bean
	SmartInitializingSingleton ojsHandlerPublication(HandlerDirectory handlers, Worker worker) {
		return () -> {
			try {
				handlers.publish(worker.nodeId());
			}
			catch (RuntimeException ex) {
				LogFactory.getLog(OjsWorkerAutoConfiguration.class)
					.warn("OJS could not publish this node's handlers (is the handlers table missing? see"
							+ " ojs.jdbc.initialize-schema): producers without them route their jobs to the default"
							+ " queue: " + ex);
			}
		};
	}

	@Bean
	@ConditionalOnMissingBean
	OjsWorker ojsWorkerLifecycle(Worker worker, OjsProperties properties) {
		return new OjsWorker(worker, properties.getWorker().isAutoStartup());
	}

}
