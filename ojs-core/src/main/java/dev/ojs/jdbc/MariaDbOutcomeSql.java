package dev.ojs.jdbc;

import java.time.Instant;
import java.util.List;

import dev.ojs.job.Job;

/**
 * Attempt outcomes on MariaDB and MySQL: as {@link OutcomeSql}, but the rescue reads its
 * expired reservations without locks and then locks them by primary key.
 */
final class MariaDbOutcomeSql extends OutcomeSql {

	MariaDbOutcomeSql(SqlSupport shared, JobRows rows, ErrorSql errors, ResultSql results, StatsSql stats,
			WorkflowSql workflows) {
		super(shared, rows, errors, results, stats, workflows);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A locking read of the range {@code state = 'active' AND locked_until < ?} would also
	 * lock the index entry just past it until the rescue commits (InnoDB does so in READ
	 * COMMITTED too): when no other reservation runs later, that entry is the first job
	 * waiting to run, which a claim's {@code SKIP LOCKED} would then pass over (a fetch just
	 * after an enqueue would find nothing). So the range is read without locks, and its jobs
	 * are locked by primary key, the conditions checked again on the latest row.
	 */
	@Override
	List<Job> findExpired(Instant now, int limit) {
		List<String> ids = this.jdbc.query("SELECT id FROM " + this.table
				+ " WHERE state = 'active' AND locked_until < ? ORDER BY locked_until, id LIMIT ?", (ps) -> {
					setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, (rs, rowNum) -> rs.getString(1));
		if (ids.isEmpty()) {
			return List.of();
		}
		return this.jdbc.query("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table
				+ " FORCE INDEX (PRIMARY) WHERE id IN (" + markers(ids.size())
				+ ") AND state = 'active' AND locked_until < ? ORDER BY locked_until, id FOR UPDATE SKIP LOCKED", (ps) -> {
					int index = 1;
					for (String id : ids) {
						ps.setString(index++, id);
					}
					setInstant(ps, index, now);
				}, this.rows.lazily());
	}

}
