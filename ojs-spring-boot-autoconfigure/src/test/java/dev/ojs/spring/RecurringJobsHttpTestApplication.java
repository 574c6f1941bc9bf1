package dev.ojs.spring;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;

/**
 * The application of the {@code recurringjobs} HTTP tests: a recurring job that does not fire
 * while they run, to operate, and one that fires every second with overlap {@code skip}
 * whose first job stays active, so that every later occurrence is skipped.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(TestDatabaseConfiguration.class)
class RecurringJobsHttpTestApplication {

	/** Fires at midnight on the first of January: never while the tests run. */
	static final String YEARLY = "http.yearly";

	/** Fires every second; its first job runs until the context closes. */
	static final String BLOCKED = "http.blocked";

	@Bean
	HttpRecurringJobs httpRecurringJobs() {
		return new HttpRecurringJobs();
	}

	static class HttpRecurringJobs {

		private final CountDownLatch release = new CountDownLatch(1);

		@OjsRecurring(name = YEARLY, cron = "0 0 1 1 *", zone = "Europe/Paris", description = "New year")
		@OjsJob(type = "http.cron_yearly")
		void yearly() {
		}

		@OjsRecurring(name = BLOCKED, cron = "@every 1s")
		@OjsJob(type = "http.cron_blocked")
		void blocked() throws InterruptedException {
			this.release.await(1, TimeUnit.MINUTES);
		}

		/** Lets the job finish before the worker stops, so that the context closes at once. */
		@EventListener(ContextClosedEvent.class)
		void release() {
			this.release.countDown();
		}

	}

}
