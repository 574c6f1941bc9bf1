package dev.ojs.spring.autoconfigure.actuate;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.ojs.retry.ErrorCode;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJob.Exhaustion;
import dev.ojs.spring.OjsJob.Jitter;
import dev.ojs.spring.OjsJobException;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application the actuator's HTTP tests start: one handler per job outcome.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ActuatorTestApplication {

	/** Completes. */
	static final String OK = "test.ok";

	/** Fails its first attempt, then completes. */
	static final String FLAKY = "test.flaky";

	/** Discarded by its handler (code DISCARD). */
	static final String DISCARD = "test.discard";

	/** Fails every attempt; exhausts two attempts into the dead letter queue. */
	static final String EXHAUST = "test.exhaust";

	/** Dead-lettered by its handler (code DEAD_LETTER) in queue {@value #PAYMENTS}. */
	static final String POISON = "test.poison";

	static final String PAYMENTS = "payments";

	static final String EXHAUST_ERROR = IllegalStateException.class.getName();

	static final String POISON_ERROR = "payment.card_stolen";

	@Bean
	TestJobs testJobs() {
		return new TestJobs();
	}

	static class TestJobs {

		private final Set<String> failedOnce = ConcurrentHashMap.newKeySet();

		@OjsJob(type = OK)
		void ok(String value) {
		}

		@OjsJob(type = FLAKY, initialInterval = "10ms", jitter = Jitter.DISABLED)
		void flaky(String key) {
			if (this.failedOnce.add(key)) {
				throw new IllegalStateException("first attempt of " + key + " fails");
			}
		}

		@OjsJob(type = DISCARD)
		void discard(String value) {
			throw OjsJobException.discard("test.not_needed", "nothing to do for " + value);
		}

		@OjsJob(type = EXHAUST, maxAttempts = 2, initialInterval = "10ms", jitter = Jitter.DISABLED,
				onExhaustion = Exhaustion.DEAD_LETTER)
		void exhaust(String value, int number, Map<String, Object> payload) {
			throw new IllegalStateException("cannot handle " + value);
		}

		@OjsJob(type = POISON, queue = PAYMENTS)
		void poison(String card) {
			throw new OjsJobException(POISON_ERROR, ErrorCode.DEAD_LETTER, "card " + card + " is stolen",
					Map.of("card", card));
		}

	}

}
