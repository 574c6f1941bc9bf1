package dev.ojs.spring.autoconfigure;

import java.util.List;
import java.util.UUID;

import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcRecurringJobStore;
import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobListener;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsRecurring;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.worker.Worker;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for recurring jobs: the schedules table
 * next to the JDBC job store, the {@link OjsRecurringJobs} bean, the registration of
 * {@link OjsRecurring @OjsRecurring} recurring jobs at start-up, and this node's evaluator
 * ({@code ojs.cron.evaluate}). Disabled with {@code ojs.cron.enabled=false}.
 */
@AutoConfiguration(after = { OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "ojs.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "ojs.cron.enabled", matchIfMissing = true)
@ConditionalOnBean({ JdbcJobStore.class, HandlerDirectory.class })
@EnableConfigurationProperties(OjsRecurringJobsProperties.class)
public final class OjsRecurringJobsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(RecurringJobStore.class)
	JdbcRecurringJobStore ojsRecurringJobStore(JdbcJobStore jobStore) {
		return new JdbcRecurringJobStore(jobStore);
	}

	@Bean
	@ConditionalOnMissingBean
	OjsRecurringJobs ojsRecurringJobs(RecurringJobStore recurringJobStore, HandlerDirectory handlers,
			ObjectProvider<JsonMapper> jsonMapper, Environment environment) {
		return new OjsRecurringJobs(recurringJobStore, handlers, jsonMapper.getIfUnique(JsonMapper::new),
				environment.getProperty("spring.application.name"));
	}

	@Bean
	OjsRecurringRegistrar ojsRecurringRegistrar(OjsRecurringJobs recurringJobs, Environment environment,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new OjsRecurringRegistrar(recurringJobs, environment, jsonMapper.getIfUnique(JsonMapper::new));
	}

	@Bean
	@ConditionalOnMissingBean
	ApplicationEventRecurringJobListener ojsApplicationEventRecurringJobListener(ApplicationEventPublisher publisher) {
		return new ApplicationEventRecurringJobListener(publisher);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "ojs.cron.evaluate", matchIfMissing = true)
	RecurringJobEvaluator ojsRecurringJobEvaluator(RecurringJobStore recurringJobStore, HandlerDirectory handlers,
			OjsRecurringJobs recurringJobs, ObjectProvider<RecurringJobListener> listeners,
			ObjectProvider<Worker> worker, OjsRecurringJobsProperties properties) {
		Worker node = worker.getIfAvailable();
		String nodeId = (node != null) ? node.nodeId() : "cron-" + UUID.randomUUID();
		List<RecurringJobListener> all = listeners.orderedStream().toList();
		return new RecurringJobEvaluator(recurringJobStore, recurringJobs.occurrenceJobs(),
				new CompositeRecurringJobListener(all), properties.settings(nodeId));
	}

	@Bean
	@ConditionalOnBean(RecurringJobEvaluator.class)
	@ConditionalOnMissingBean
	OjsRecurringJobsLifecycle ojsRecurringJobsLifecycle(RecurringJobEvaluator evaluator) {
		return new OjsRecurringJobsLifecycle(evaluator);
	}

	/** Every {@link RecurringJobListener} bean, in order; one that throws does not stop the others. */
	record CompositeRecurringJobListener(List<RecurringJobListener> listeners) implements RecurringJobListener {

		@Override
		public void triggered(Triggered event) {
			this.listeners.forEach((listener) -> notify(() -> listener.triggered(event)));
		}

		@Override
		public void skipped(Skipped event) {
			this.listeners.forEach((listener) -> notify(() -> listener.skipped(event)));
		}

		private static void notify(Runnable call) {
			try {
				call.run();
			}
			catch (RuntimeException ex) {
				LogFactory.getLog(CompositeRecurringJobListener.class).warn("OJS recurring job listener failed: " + ex,
						ex);
			}
		}

	}

}
