package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.recurring.OccurrenceJobs;
import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobListener;
import dev.ojs.recurring.RecurringJobSettings;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link RecurringJobsHealthIndicator}: up while the evaluator has evaluated within
 * {@value RecurringJobsHealthIndicator#STALE_INTERVALS} intervals, down after, on a
 * controllable clock.
 */
class RecurringJobsHealthIndicatorTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private final MutableClock clock = new MutableClock(START);

	private final RecurringJobStore store = mock(RecurringJobStore.class);

	@BeforeEach
	void store() {
		given(this.store.now()).willAnswer((invocation) -> this.clock.instant());
		given(this.store.holdLease(eq("node-a"), any())).willReturn(true);
		given(this.store.leaseHolder()).willReturn(Optional.of("node-a"));
	}

	@Test
	void upJustAfterAnEvaluationWithTheLeaseDetails() {
		RecurringJobEvaluator evaluator = evaluator(Duration.ofSeconds(1));
		evaluator.evaluate();
		Health health = new RecurringJobsHealthIndicator(evaluator, recurringJobs()).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("leader", true)
			.containsEntry("leaseHolder", "node-a")
			.containsEntry("lastEvaluation", START.toString())
			.containsEntry("sinceLastEvaluation", "PT0S");
	}

	@Test
	void upUntilFiveIntervalsWithoutAnEvaluationThenDownSayingHowLongItHasBeen() {
		RecurringJobEvaluator evaluator = evaluator(Duration.ofSeconds(2));
		evaluator.evaluate();
		RecurringJobsHealthIndicator indicator = new RecurringJobsHealthIndicator(evaluator, recurringJobs());
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
		this.clock.advance(Duration.ofMillis(1));
		Health health = indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("lastEvaluation", START.toString())
			.containsEntry("sinceLastEvaluation", "PT10.001S");
		evaluator.evaluate();
		assertThat(indicator.health().getStatus()).as("evaluating again").isEqualTo(Status.UP);
	}

	@Test
	void anEvaluationStandingByCounts() {
		given(this.store.holdLease(eq("node-a"), any())).willReturn(false);
		given(this.store.leaseHolder()).willReturn(Optional.of("node-b"));
		RecurringJobEvaluator evaluator = evaluator(Duration.ofSeconds(1));
		evaluator.evaluate();
		Health health = new RecurringJobsHealthIndicator(evaluator, recurringJobs()).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("leader", false).containsEntry("leaseHolder", "node-b");
	}

	@Test
	void aStartedEvaluatorIsUpUntilItsFirstEvaluationIsFiveIntervalsLate() {
		RecurringJobEvaluator evaluator = evaluator(Duration.ofSeconds(2));
		// started at START on the store's clock (its thread, stopped at once, evaluates at START at most)
		evaluator.start();
		evaluator.stop(Duration.ofSeconds(5));
		RecurringJobsHealthIndicator indicator = new RecurringJobsHealthIndicator(evaluator, recurringJobs());
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
	}

	@Test
	void downWhenItNeverEvaluated() {
		Health health = new RecurringJobsHealthIndicator(evaluator(Duration.ofSeconds(1)), recurringJobs()).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("lastEvaluation", "never").doesNotContainKey("sinceLastEvaluation");
	}

	private OjsRecurringJobs recurringJobs() {
		return new OjsRecurringJobs(this.store, mock(HandlerDirectory.class), new JsonMapper(), null);
	}

	private RecurringJobEvaluator evaluator(Duration interval) {
		OccurrenceJobs jobs = (definition, meta, uniqueKey) -> {
			throw new AssertionError("nothing is due");
		};
		return new RecurringJobEvaluator(this.store, jobs, RecurringJobListener.NONE, new RecurringJobSettings("node-a",
				interval, interval.multipliedBy(3), 10));
	}

}
