package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.IntSupplier;

import org.springframework.dao.ConcurrencyFailureException;

import dev.ojs.job.Timestamps;
import dev.ojs.worker.RetentionSettings;

/**
 * The rules of {@link JdbcJobStore#prune}: completed jobs older than
 * {@link RetentionSettings#completed()}, plain discarded and cancelled jobs older than
 * {@link RetentionSettings#discarded()}, dead letters older than
 * {@link RetentionSettings#deadLetterMaxAge()}, then the oldest dead letters beyond
 * {@link RetentionSettings#deadLetterMaxCount()}; and the statistics and nodes older than
 * they are kept; then ended workflows none of whose jobs is left. Works in chunks of {@value #CHUNK} rows, at most {@value #MAX_CHUNKS} per
 * rule, and starts no chunk once its budget has passed: the next run continues.
 * <p>
 * The count rule is idempotent, so nodes pruning at the same time never keep fewer than the
 * maximum: it finds the n-th newest dead letter (by {@code discarded_at}, then id) and deletes
 * only dead letters ordered strictly before that row.
 */
final class PruneRules {

	private static final int CHUNK = 5000;

	private static final int MAX_CHUNKS = 200;

	/** Per-minute statistics are kept at least this long. */
	static final Duration STATS_RETENTION = Duration.ofHours(24);

	private final DeleteSql deletes;

	private final StatsSql stats;

	private final NodeSql nodes;

	private final WorkflowSql workflows;

	PruneRules(JdbcDialect dialect) {
		this.deletes = dialect.deletes();
		this.stats = dialect.stats();
		this.nodes = dialect.nodes();
		this.workflows = dialect.workflows();
	}

	/** Prunes as of {@code now} for at most {@code budget}; returns the rows deleted. */
	long prune(RetentionSettings retention, Duration budget, Instant now) {
		long deadline = System.nanoTime() + Math.min(budget.toNanos(), Duration.ofDays(1).toNanos());
		long deleted = deleteInChunks(
				() -> this.deletes.deleteCompletedBefore(Timestamps.minus(now, retention.completed()), CHUNK), deadline);
		deleted += deleteInChunks(
				() -> this.deletes.deleteDiscardedBefore(Timestamps.minus(now, retention.discarded()), CHUNK), deadline);
		deleted += deleteInChunks(() -> this.deletes
			.deleteDeadLettersBefore(Timestamps.minus(now, retention.deadLetterMaxAge()), CHUNK), deadline);
		if (retention.deadLetterMaxCount() <= 0) {
			deleted += deleteInChunks(() -> this.deletes.deleteDeadLettersBefore(Timestamps.MAX, CHUNK), deadline);
			return deleted + deleteInChunks(() -> this.workflows.deleteEnded(CHUNK), deadline);
		}
		deleted += pruneStatsAndNodes(now, retention);
		DeleteSql.DeadLetterPosition oldestKept = this.deletes.newestDeadLetter(retention.deadLetterMaxCount());
		if (oldestKept != null) {
			deleted += deleteInChunks(() -> this.deletes.deleteDeadLettersBefore(oldestKept, CHUNK), deadline);
		}
		return deleted + deleteInChunks(() -> this.workflows.deleteEnded(CHUNK), deadline);
	}

	/**
	 * Per-minute statistics older than the retention of completed jobs, and at least
	 * {@link #STATS_RETENTION}; nodes not seen for as long (crashed, never stopped cleanly).
	 * Counted in the rows deleted.
	 */
	private long pruneStatsAndNodes(Instant now, RetentionSettings retention) {
		Duration keep = (retention.completed().compareTo(STATS_RETENTION) > 0) ? retention.completed() : STATS_RETENTION;
		try {
			Instant cutoff = Timestamps.minus(now, keep).truncatedTo(ChronoUnit.MINUTES);
			return this.stats.deleteBefore(cutoff) + this.nodes.deleteBefore(cutoff);
		}
		catch (ConcurrencyFailureException ex) {
			return 0;
		}
	}

	/**
	 * Runs a chunked delete until it deletes less than a chunk, the budget is spent or
	 * {@value #MAX_CHUNKS} chunks. A lock conflict (another node pruning the same rows;
	 * InnoDB may report a deadlock) ends this rule for this run: the other node does the work.
	 */
	private static long deleteInChunks(IntSupplier chunk, long deadline) {
		long deleted = 0;
		try {
			for (int i = 0; i < MAX_CHUNKS && System.nanoTime() < deadline; i++) {
				int count = chunk.getAsInt();
				deleted += count;
				if (count < CHUNK) {
					break;
				}
			}
		}
		catch (ConcurrencyFailureException ex) {
			// pruned concurrently: the rest is the other node's or the next run's
		}
		return deleted;
	}

}
