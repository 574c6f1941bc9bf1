package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.JobState;

/**
 * The SQL that deletes jobs, each with its error history: pruning by age and count, the
 * Admin API's deletes and purges, and the delete of a dead letter. Here a chunk's ids are
 * read, then its jobs and their history deleted, in one transaction (or under a savepoint of
 * the caller's); {@link PostgresDeleteSql} deletes both in one statement.
 */
class DeleteSql extends SqlSupport {

	/** Terminal states: only these may be deleted or purged. */
	static final String TERMINAL = "'completed', 'discarded', 'cancelled'";

	final ErrorSql errors;

	final ResultSql results;

	private final TransactionTemplate batchTx;

	DeleteSql(SqlSupport shared, ErrorSql errors, ResultSql results) {
		super(shared);
		this.errors = errors;
		this.results = results;
		this.batchTx = transaction(TransactionDefinition.PROPAGATION_NESTED, TransactionDefinition.ISOLATION_DEFAULT);
	}

	// ---- pruning

	/** Deletes up to {@code limit} jobs completed before {@code cutoff}, oldest first. */
	final int deleteCompletedBefore(Instant cutoff, int limit) {
		return deleteMatching("state = 'completed' AND completed_at < ?", List.of(cutoff), "completed_at", limit);
	}

	/** Deletes up to {@code limit} plain discarded and cancelled jobs discarded before {@code cutoff}, oldest first. */
	final int deleteDiscardedBefore(Instant cutoff, int limit) {
		return deleteMatching("state IN ('discarded', 'cancelled') AND dead_letter = FALSE AND discarded_at < ?",
				List.of(cutoff), "discarded_at", limit);
	}

	/** Deletes up to {@code limit} dead letters discarded before {@code cutoff}, oldest first. */
	final int deleteDeadLettersBefore(Instant cutoff, int limit) {
		return deleteMatching(JobRows.DEAD_LETTER + " AND discarded_at < ?", List.of(cutoff), "discarded_at, id", limit);
	}

	/** Where a dead letter stands in age order: its {@code discarded_at}, then its id. */
	record DeadLetterPosition(Instant discardedAt, String id) {
	}

	/** The {@code n}-th newest dead letter (1-based), or {@code null} when there are fewer. */
	final @Nullable DeadLetterPosition newestDeadLetter(int n) {
		List<DeadLetterPosition> rows = this.jdbc.query("SELECT discarded_at, id FROM " + this.table + " WHERE "
				+ JobRows.DEAD_LETTER + " ORDER BY discarded_at DESC, id DESC LIMIT 1 OFFSET ?",
				(ps) -> ps.setInt(1, n - 1), (rs, rowNum) -> new DeadLetterPosition(getInstant(rs, 1), rs.getString(2)));
		return rows.isEmpty() ? null : rows.get(0);
	}

	/** Deletes up to {@code limit} of the dead letters ordered strictly before {@code position}, oldest first. */
	final int deleteDeadLettersBefore(DeadLetterPosition position, int limit) {
		return deleteMatching(
				JobRows.DEAD_LETTER + " AND (discarded_at < ? OR (discarded_at = ? AND id < " + idParam() + "))",
				List.of(position.discardedAt(), position.discardedAt(), position.id()), "discarded_at, id", limit);
	}

	// ---- single jobs and the Admin API

	/** Deletes the job if it is a dead letter; {@code true} if it was. */
	final boolean deleteDeadLetter(String id) {
		return deleteIds(List.of(id), JobRows.DEAD_LETTER, List.of()) == 1;
	}

	/** Deletes those of the ids that are terminal; returns how many. */
	final int deleteTerminal(List<String> ids) {
		return deleteIds(ids, "state IN (" + TERMINAL + ")", List.of());
	}

	/** Deletes up to {@code limit} jobs of the queue in these states created before {@code olderThan}. */
	final int purge(String queue, Set<JobState> states, @Nullable Instant olderThan, int limit) {
		WhereClause where = purgeWhere(queue, states, olderThan);
		return deleteMatching(where.conditions(), where.params, "id", limit);
	}

	/** How many jobs {@link #purge} would delete without its limit. */
	final long countPurgeable(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		WhereClause where = purgeWhere(queue, states, olderThan);
		Long count = this.jdbc.query("SELECT count(*) FROM " + this.table + where.sql(), where::bind,
				(rs) -> rs.next() ? rs.getLong(1) : 0L);
		return (count != null) ? count : 0;
	}

	private WhereClause purgeWhere(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		WhereClause where = new WhereClause(this);
		where.and("queue = ?", queue);
		where.in("state", states.stream().map(JobState::value).sorted().toList());
		where.createdBefore(olderThan);
		return where;
	}

	// ---- the deletes

	/**
	 * Deletes up to {@code limit} jobs matching {@code where} (its {@code values} bound in
	 * order), first in {@code order}, with their error history; returns how many jobs.
	 */
	int deleteMatching(String where, List<?> values, String order, int limit) {
		Integer deleted = this.batchTx.execute((status) -> deleteChunks(this.jdbc.query("SELECT id FROM " + this.table
				+ " WHERE " + where + " ORDER BY " + order + " LIMIT ?", (ps) -> ps.setInt(bindValues(ps, 1, values), limit),
				(rs, rowNum) -> rs.getString(1)), where, values));
		return (deleted != null) ? deleted : 0;
	}

	/**
	 * Deletes those of the jobs {@code ids} that match {@code where} (its {@code values}
	 * bound in order), with their error history; returns how many jobs.
	 */
	private int deleteIds(Collection<String> ids, String where, List<?> values) {
		Integer deleted = this.batchTx.execute((status) -> deleteChunks(ids, where, values));
		return (deleted != null) ? deleted : 0;
	}

	private int deleteChunks(Collection<String> ids, String where, List<?> values) {
		int count = 0;
		for (List<String> chunk : chunks(new ArrayList<>(ids), CHUNK)) {
			count += this.jdbc.update("DELETE FROM " + this.table + " WHERE id IN (" + idMarkers(chunk.size()) + ") AND "
					+ where, (ps) -> bindValues(ps, bindValues(ps, 1, chunk), values));
			this.errors.deleteOfDeleted(chunk);
			this.results.deleteOfDeleted(chunk);
		}
		return count;
	}

}
