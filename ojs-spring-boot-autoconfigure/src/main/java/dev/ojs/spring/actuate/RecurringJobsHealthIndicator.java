package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.spring.OjsRecurringJobs;

/**
 * Health of this node's recurring-job evaluator: down when it has not finished an evaluation
 * (as lease holder or standing by) for {@value #STALE_INTERVALS} intervals. Details: whether
 * this node holds the lease, the holder, the last evaluation and how long ago it was.
 */
public class RecurringJobsHealthIndicator extends AbstractHealthIndicator {

	/** Intervals without an evaluation after which the evaluator is reported down. */
	public static final int STALE_INTERVALS = 5;

	private final RecurringJobEvaluator evaluator;

	private final OjsRecurringJobs recurringJobs;

	public RecurringJobsHealthIndicator(RecurringJobEvaluator evaluator, OjsRecurringJobs recurringJobs) {
		super("OJS recurring jobs health check failed");
		this.evaluator = evaluator;
		this.recurringJobs = recurringJobs;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Instant last = this.evaluator.lastEvaluation();
		Duration stale = this.evaluator.settings().interval().multipliedBy(STALE_INTERVALS);
		Instant now = this.recurringJobs.now();
		// a node that has just started has until the first evaluation is due, like any other
		Instant since = (last != null) ? last : this.evaluator.startedAt();
		boolean fresh = since != null && !since.plus(stale).isBefore(now);
		(fresh ? builder.up() : builder.down()).withDetail("leader", this.evaluator.isLeader())
			.withDetail("leaseHolder", this.recurringJobs.leaseHolder().orElse("none"))
			.withDetail("lastEvaluation", (last != null) ? last.toString() : "never");
		if (last != null) {
			builder.withDetail("sinceLastEvaluation", Duration.between(last, now).toString());
		}
	}

}
