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

import dev.ojs.cron.CronEvaluator;
import dev.ojs.cron.CronEventListener;
import dev.ojs.cron.CronStore;
import dev.ojs.jdbc.JdbcCronStore;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsRecurring;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.worker.Worker;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for recurring jobs: the schedules table
 * next to the JDBC job store, the {@link OjsRecurringJobs} bean, the registration of
 * {@link OjsRecurring @OjsRecurring} schedules at start-up, and this node's evaluator
 * ({@code ojs.cron.evaluate}). Disabled with {@code ojs.cron.enabled=false}.
 */
@AutoConfiguration(after = { OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "ojs.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "ojs.cron.enabled", matchIfMissing = true)
@ConditionalOnBean({ JdbcJobStore.class, HandlerDirectory.class })
@EnableConfigurationProperties(OjsCronProperties.class)
public final class OjsCronAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(CronStore.class)
	JdbcCronStore ojsCronStore(JdbcJobStore jobStore) {
		return new JdbcCronStore(jobStore);
	}

	@Bean
	@ConditionalOnMissingBean
	OjsRecurringJobs ojsRecurringJobs(CronStore cronStore, HandlerDirectory handlers,
			ObjectProvider<JsonMapper> jsonMapper, Environment environment) {
		return new OjsRecurringJobs(cronStore, handlers, jsonMapper.getIfUnique(JsonMapper::new),
				environment.getProperty("spring.application.name"));
	}

	@Bean
	OjsRecurringRegistrar ojsRecurringRegistrar(OjsRecurringJobs recurringJobs, Environment environment,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new OjsRecurringRegistrar(recurringJobs, environment, jsonMapper.getIfUnique(JsonMapper::new));
	}

	@Bean
	@ConditionalOnMissingBean
	ApplicationEventCronEventListener ojsApplicationEventCronEventListener(ApplicationEventPublisher publisher) {
		return new ApplicationEventCronEventListener(publisher);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "ojs.cron.evaluate", matchIfMissing = true)
	CronEvaluator ojsCronEvaluator(CronStore cronStore, HandlerDirectory handlers, OjsRecurringJobs recurringJobs,
			ObjectProvider<CronEventListener> listeners, ObjectProvider<Worker> worker, OjsCronProperties properties) {
		Worker node = worker.getIfAvailable();
		String nodeId = (node != null) ? node.nodeId() : "cron-" + UUID.randomUUID();
		List<CronEventListener> all = listeners.orderedStream().toList();
		return new CronEvaluator(cronStore, recurringJobs.tickJobs(), new CompositeCronEventListener(all),
				properties.settings(nodeId));
	}

	@Bean
	@ConditionalOnBean(CronEvaluator.class)
	@ConditionalOnMissingBean
	OjsCronLifecycle ojsCronLifecycle(CronEvaluator evaluator) {
		return new OjsCronLifecycle(evaluator);
	}

	/** Every {@link CronEventListener} bean, in order; one that throws does not stop the others. */
	record CompositeCronEventListener(List<CronEventListener> listeners) implements CronEventListener {

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
				LogFactory.getLog(CompositeCronEventListener.class).warn("OJS cron event listener failed: " + ex, ex);
			}
		}

	}

}
