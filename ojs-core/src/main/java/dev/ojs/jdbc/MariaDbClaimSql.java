package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;

/**
 * Claims on MariaDB 10.6+ and MySQL 8.0+. There is no {@code UPDATE ... RETURNING}, so a
 * claim is a READ COMMITTED transaction that reads due jobs in claim order over the
 * generated-column index {@code (claim_queue, claim_rank, scheduled_at, id)}, locks them by
 * primary key ({@code FOR UPDATE SKIP LOCKED}), then marks them
 * {@code UPDATE ... WHERE id IN (...)} (see {@link #claim}).
 */
final class MariaDbClaimSql extends ClaimSql {

	/** A claim's transaction: its own, or the caller's (a rate-limited claim's, holding its queue's bucket). */
	private final TransactionTemplate claimTx;

	MariaDbClaimSql(SqlSupport shared, JobRows rows) {
		super(shared, rows);
		this.claimTx = transaction(TransactionDefinition.PROPAGATION_REQUIRED,
				TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/**
	 * The claim walks the queue's priorities, highest first, each found by one index descent
	 * (the first {@code claim_rank} past the previous one), and takes from each only its due
	 * range, which {@code scheduled_at <= now} ends: jobs scheduled ahead (delayed jobs,
	 * retries waiting out their backoff) are never read. A single range over the queue would
	 * read all of them before it could tell that nothing more is due, since {@code claim_rank}
	 * comes before {@code scheduled_at} in the index (and MariaDB has no loose index scan).
	 * <p>
	 * A due range is read without locks, and its jobs are then locked by primary key
	 * ({@code FOR UPDATE SKIP LOCKED}, the claim's conditions checked again on the latest
	 * row). A locking read of the range itself would also lock the index entry just past it
	 * until the claim commits (InnoDB does so in READ COMMITTED too): that entry is the first
	 * job of the next priority or queue, which a concurrent claim would then skip.
	 */
	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now,
			Collection<String> excludedKeys) {
		List<String> types = anyType(visibilityByType) ? List.of() : new ArrayList<>(visibilityByType.keySet());
		return this.claimTx.execute((status) -> {
			List<Job> locked = new ArrayList<>();
			for (Long rank = nextClaimRank(queue, null); rank != null && locked.size() < limit;
					rank = nextClaimRank(queue, rank)) {
				lockDue(queue, rank, types, excludedKeys, limit, now, locked);
			}
			if (locked.isEmpty()) {
				return locked;
			}
			this.jdbc.update("UPDATE " + this.table + " SET state = 'active', attempt = attempt + 1, locked_by = ?,"
					+ " started_at = ?, locked_until = " + lockedUntilExpression(visibilityByType, "type")
					+ " WHERE id IN (" + markers(locked.size()) + ")", (ps) -> {
						ps.setString(1, nodeId);
						setInstant(ps, 2, now);
						int index = bindLockedUntil(ps, 3, visibilityByType, now);
						for (Job row : locked) {
							ps.setString(index++, row.id());
						}
					});
			List<Job> jobs = new ArrayList<>(locked.size());
			for (Job row : locked) {
				jobs.add(JobRows.claimed(row, nodeId, now, Timestamps.plus(now, visibility(visibilityByType, row.type()))));
			}
			return jobs;
		});
	}

	/**
	 * Adds the due jobs of one priority it can lock to {@code locked}, until there are
	 * {@code limit} or the due range ends; jobs locked by others are skipped.
	 */
	private void lockDue(String queue, long rank, List<String> types, Collection<String> excludedKeys, int limit,
			Instant now, List<Job> locked) {
		Due after = null;
		while (locked.size() < limit) {
			int wanted = limit - locked.size();
			List<Due> due = dueJobs(queue, rank, types, excludedKeys, now, after, wanted);
			if (!due.isEmpty()) {
				locked.addAll(lock(queue, now, due));
			}
			if (due.size() < wanted) {
				return;
			}
			after = due.get(due.size() - 1);
		}
	}

	/** A due job's place in the claim index. */
	private record Due(String id, Instant scheduledAt) {
	}

	/** The next {@code wanted} due jobs of a priority after {@code after} (from the start when {@code null}), without locks. */
	private List<Due> dueJobs(String queue, long rank, List<String> types, Collection<String> excludedKeys, Instant now,
			@Nullable Due after, int wanted) {
		String sql = "SELECT c.id, c.scheduled_at FROM " + this.table + " c" + claimIndex()
				+ " WHERE claim_queue = ? AND claim_rank = ? AND scheduled_at <= ?"
				+ ((after != null) ? " AND (scheduled_at > ? OR (scheduled_at = ? AND id > ?))" : "") + NOT_EXPIRED
				+ typeFilter(types) + keyFilter(excludedKeys) + sequenceFilter("c") + " ORDER BY scheduled_at, id LIMIT ?";
		return this.jdbc.query(sql, (ps) -> {
			ps.setString(1, queue);
			ps.setLong(2, rank);
			setInstant(ps, 3, now);
			int index = 4;
			if (after != null) {
				setInstant(ps, index++, after.scheduledAt());
				setInstant(ps, index++, after.scheduledAt());
				ps.setString(index++, after.id());
			}
			setInstant(ps, index++, now);
			for (String type : types) {
				ps.setString(index++, type);
			}
			for (String key : excludedKeys) {
				ps.setString(index++, key);
			}
			ps.setInt(index, wanted);
		}, (rs, rowNum) -> new Due(rs.getString(1), getInstant(rs, 2)));
	}

	/**
	 * Locks those of {@code due} that are still claimable and not locked by another
	 * transaction. Only the state ({@code claim_queue}) and the due time of a job change after
	 * its insert; its type and expiry were checked by the read.
	 */
	private List<Job> lock(String queue, Instant now, List<Due> due) {
		String sql = "SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + " FORCE INDEX (PRIMARY) WHERE id IN ("
				+ markers(due.size()) + ") AND claim_queue = ? AND scheduled_at <= ?"
				+ " ORDER BY scheduled_at, id FOR UPDATE SKIP LOCKED";
		return this.jdbc.query(sql, (ps) -> {
			int index = 1;
			for (Due job : due) {
				ps.setString(index++, job.id());
			}
			ps.setString(index++, queue);
			setInstant(ps, index, now);
		}, this.rows.lazily());
	}

	/** The queue's next priority in claim order after {@code after} (all when {@code null}), or {@code null}. */
	private @Nullable Long nextClaimRank(String queue, @Nullable Long after) {
		return this.jdbc.query("SELECT claim_rank FROM " + this.table + claimIndex() + " WHERE claim_queue = ?"
				+ ((after != null) ? " AND claim_rank > ?" : "") + " ORDER BY claim_rank LIMIT 1", (ps) -> {
					ps.setString(1, queue);
					if (after != null) {
						ps.setLong(2, after);
					}
				}, (rs) -> rs.next() ? rs.getLong(1) : null);
	}

	/**
	 * The claim index, named: with few rows or fresh statistics the optimizer may otherwise read
	 * the unique index ({@code type} is in the claim's filter) or all of a priority's entries.
	 */
	private String claimIndex() {
		return " FORCE INDEX (" + this.table + "_claim_idx)";
	}

}
