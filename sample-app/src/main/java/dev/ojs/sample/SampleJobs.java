package dev.ojs.sample;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

import dev.ojs.retry.ErrorCode;
import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsError;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobException;
import dev.ojs.spring.OjsRecurring;

/**
 * The sample's job handlers, one per retry behaviour. Intervals are tiny so that everything
 * plays out within seconds of start-up.
 */
@Component
public class SampleJobs {

	private static final Log logger = LogFactory.getLog(SampleJobs.class);

	/** The arguments of {@code sample.welcome}: a record, bound from JSON. */
	public record Welcome(String email, String name) {
	}

	/** A recurring job: every 10 seconds, once across all nodes; see /actuator/recurringjobs. */
	@OjsRecurring(name = "sample.heartbeat", cron = "@every 10s")
	@OjsJob(type = "sample.heartbeat")
	public void heartbeat(JobContext context) {
		logger.info("Recurring heartbeat (job " + context.id() + ")");
	}

	/** Succeeds at once. */
	@OjsJob(type = "sample.welcome", queue = "emails")
	public void welcome(Welcome welcome, JobContext context) {
		logger.info("Welcome mail sent to " + welcome.name() + " <" + welcome.email() + "> (job " + context.id() + ")");
	}

	/** Fails its first attempts, then succeeds: retried with exponential backoff. */
	@OjsJob(type = "sample.flaky", maxAttempts = 5, initialInterval = "200ms", jitter = OjsJob.Jitter.DISABLED)
	public void flaky(int succeedOnAttempt, JobContext context) throws IOException {
		if (context.attempt() < succeedOnAttempt) {
			throw new IOException("Upstream unavailable (attempt " + context.attempt() + " of " + context.maxAttempts()
					+ ")");
		}
		logger.info("Flaky job " + context.id() + " succeeded on attempt " + context.attempt() + " after "
				+ context.previousErrors().size() + " failure(s)");
	}

	/** Thrown for a declined card: its OJS error type is declared on the class. */
	@OjsError(type = "payments.card_declined")
	public static class CardDeclinedException extends RuntimeException {

		public CardDeclinedException(String message) {
			super(message);
		}

	}

	/**
	 * A non-retryable error: {@code payments.*} is in {@code non_retryable_errors}, so the
	 * first failure is terminal despite the remaining attempts (spec §6).
	 */
	@OjsJob(type = "sample.charge", maxAttempts = 5, nonRetryableErrors = "payments.*",
			onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
	public void charge(String customer, BigDecimal amount) {
		throw new CardDeclinedException("Card of " + customer + " declined for " + amount);
	}

	/** The handler itself answers DEAD_LETTER (spec §7): no retry, straight to the queue. */
	@OjsJob(type = "sample.import")
	public void importFile(String file) {
		throw new OjsJobException("validation.file_corrupt", ErrorCode.DEAD_LETTER,
				"File " + file + " is corrupt; needs a human", Map.of("file", file));
	}

	/** Always fails: exhausts its 3 attempts into the dead letter queue. */
	@OjsJob(type = "sample.sync", maxAttempts = 3, initialInterval = "100ms",
			onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
	public void sync(String account) throws IOException {
		throw new IOException("Partner API rejected the sync of " + account);
	}

}
