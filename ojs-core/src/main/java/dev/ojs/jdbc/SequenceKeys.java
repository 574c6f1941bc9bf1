package dev.ojs.jdbc;

import java.sql.ResultSet;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Whether the job table holds a job with a sequence key, in any state, as claims ask it: read
 * at most once a second, and again before the next claim after this node inserted such a job
 * ({@link LimitsCache}). While it holds none, a claim leaves the sequence check out and takes
 * no job with a key ({@link ClaimSql#sequenceFilter}): on PostgreSQL, planning the check's
 * subquery took as long as planning the rest of the claim. A job with a key that another node
 * inserts meanwhile waits for this node's next read, a second at most; one this node inserts
 * does not wait.
 */
final class SequenceKeys {

	private final LimitsCache<Boolean> held;

	SequenceKeys(JdbcTemplate jdbc, String table) {
		String sql = sql(table);
		this.held = new LimitsCache<>(() -> Boolean.TRUE.equals(jdbc.query(sql, ResultSet::next)), true, table);
	}

	/**
	 * The read: the first entry of the sequence index. Its order is the index's, so PostgreSQL
	 * reads that entry even without the table's statistics; with {@code LIMIT 1} alone it scanned
	 * the whole table of jobs without a key (21 ms for 200,000 jobs, every second).
	 */
	static String sql(String table) {
		return "SELECT sequence_key FROM " + table + " WHERE sequence_key IS NOT NULL ORDER BY sequence_key LIMIT 1";
	}

	/** Whether some job has a sequence key, as last read. */
	boolean held() {
		return this.held.get();
	}

	/** This node inserted a job with a sequence key, and the insert committed: read again before the next claim. */
	void inserted() {
		this.held.changed();
	}

}
