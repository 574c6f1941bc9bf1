package dev.ojs.spring;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;

import dev.ojs.recurring.OverlapPolicy;
import dev.ojs.spring.event.RecurringJobTriggeredEvent;

/**
 * The application of the recurring-job integration tests: annotated recurring jobs whose
 * attributes come from properties, handlers that fail, and a recorder of cron events.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(TestDatabaseConfiguration.class)
class RecurringJobsTestApplication {

	@Bean
	RecurringHandlers recurringHandlers() {
		return new RecurringHandlers();
	}

	static class RecurringHandlers {

		final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		final List<Object> events = new CopyOnWriteArrayList<>();

		@OjsRecurring(name = "it.failing", cron = "@every 1s", zone = "${it.zone:UTC}", overlap = OverlapPolicy.ALLOW)
		@OjsJob(type = "it.cron_failing", maxAttempts = 2, onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
		void failing(JobContext context) {
			this.runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
			throw new IllegalStateException("always");
		}

		@OjsRecurring(name = "it.overridden", cron = "@every 1s", retry = "{\"max_attempts\": 3}",
				overlap = OverlapPolicy.ALLOW, enabled = "${it.overridden.enabled:true}")
		@OjsJob(type = "it.cron_overridden", maxAttempts = 2, onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
		void overridden(JobContext context) {
			this.runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
			throw new IllegalStateException("always");
		}

		@OjsRecurring(name = "it.off", cron = "${it.off.cron}", enabled = "${it.off.enabled}",
				zone = "Europe/Berlin")
		@OjsJob(type = "it.cron_off")
		void off() {
		}

		@EventListener
		void on(RecurringJobTriggeredEvent event) {
			this.events.add(event.getTriggered());
		}

	}

}
