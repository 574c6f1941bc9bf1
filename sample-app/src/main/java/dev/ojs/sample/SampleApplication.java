package dev.ojs.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;

/**
 * OJS sample: durable jobs in the application's own database (embedded H2 by default, the
 * {@code postgres} profile for PostgreSQL). On start-up it enqueues one job per scenario
 * (see {@link SampleScenarios}) and logs the events they produce.
 */
@SpringBootApplication
public class SampleApplication {

	private static final Log logger = LogFactory.getLog(SampleApplication.class);

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "sample.enqueue-on-startup", matchIfMissing = true)
	ApplicationRunner enqueueScenarios(SampleScenarios scenarios) {
		return (args) -> scenarios.enqueueAll()
			.forEach((scenario, id) -> logger.info("Enqueued " + scenario + " (" + SampleScenarios.DESCRIPTIONS
				.get(scenario) + "): " + id));
	}

	@EventListener
	void completed(JobCompletedEvent event) {
		logger.info("Completed " + event.getType() + " " + event.getJobId() + " on attempt " + event.getAttempt());
	}

	@EventListener
	void retrying(JobRetryingEvent event) {
		logger.info("Retrying " + event.getType() + " " + event.getJobId() + " after attempt " + event.getAttempt()
				+ " (" + event.getError().type() + ") in " + event.getDelay().toMillis() + " ms");
	}

	@EventListener
	void discarded(JobDiscardedEvent event) {
		logger.info("Discarded " + event.getType() + " " + event.getJobId() + ": " + event.getError().type());
	}

	@EventListener
	void deadLettered(JobDeadLetteredEvent event) {
		logger.warn("Dead-lettered " + event.getType() + " " + event.getJobId() + " after attempt "
				+ event.getAttempt() + ": " + event.getError().type() + " - " + event.getError().message());
	}

}
