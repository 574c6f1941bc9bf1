package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;

/**
 * The SQL of the application's reads and writes of single jobs on the job table: find,
 * cancel, activate, counts per queue, and the checks that the table is there and vacuumed.
 */
final class JobSql extends SqlSupport {

	/** States a cancel ends: live or pending. */
	private static final String CANCELLABLE = JobRows.LIVE + ", 'pending'";

	private final JobRows rows;

	JobSql(SqlSupport shared, JobRows rows) {
		super(shared);
		this.rows = rows;
	}

	/** The job with this id, if any. */
	Optional<Job> findById(String id) {
		return this.rows.read("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + " WHERE id = " + idParam(),
				(ps) -> ps.setString(1, id))
			.stream()
			.findFirst();
	}

	/**
	 * The jobs with these ids that exist, one query per {@value #CHUNK} ids; their error
	 * histories are read when first used, one query for each chunk's (an ack needs none).
	 */
	List<Job> findByIds(List<String> ids) {
		List<Job> found = new ArrayList<>(ids.size());
		for (List<String> chunk : chunks(ids, CHUNK)) {
			found.addAll(this.jdbc.query("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + " WHERE id IN ("
					+ idMarkers(chunk.size()) + ")", (ps) -> bindValues(ps, 1, chunk), this.rows.lazily()));
		}
		return found;
	}

	/** The state of a job, or {@code null} when there is none. */
	@Nullable String state(String id) {
		List<String> states = this.jdbc.queryForList("SELECT state FROM " + this.table + " WHERE id = " + idParam(),
				String.class, id);
		return states.isEmpty() ? null : states.get(0);
	}

	/**
	 * The jobs with these ids that a cancel ends: live (scheduled, available, retryable or
	 * active) or pending, as they stand, each row locked until the transaction ends, in id order
	 * (the order of every writer), one query per {@value #CHUNK} ids. What they are read as is
	 * what {@link #cancel} then ends.
	 */
	List<Job> lockCancellable(List<String> ids) {
		List<String> sorted = ids.stream().sorted().toList();
		List<Job> found = new ArrayList<>(ids.size());
		for (List<String> chunk : chunks(sorted, CHUNK)) {
			found.addAll(this.jdbc.query("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + " WHERE id IN ("
					+ idMarkers(chunk.size()) + ") AND state IN (" + CANCELLABLE + ") ORDER BY id FOR UPDATE",
					(ps) -> bindValues(ps, 1, chunk), this.rows.lazily()));
		}
		return found;
	}

	/**
	 * Cancels these jobs if they are live or pending, one statement per {@value #CHUNK} ids. An
	 * active job keeps its attempt and owner, so that the owner's outcome writes, guarded by
	 * state {@code active}, are rejected.
	 */
	void cancel(List<String> ids, Instant now) {
		for (List<String> chunk : chunks(ids, CHUNK)) {
			this.jdbc.update("UPDATE " + this.table + " SET state = 'cancelled', discarded_at = ?,"
					+ " locked_until = NULL WHERE id IN (" + idMarkers(chunk.size()) + ") AND state IN (" + CANCELLABLE
					+ ")", (ps) -> {
						setInstant(ps, 1, now);
						bindValues(ps, 2, chunk);
					});
		}
	}

	/** Makes a pending job available from {@code now} (ojs-core §6.2 ACTIVATE); {@code true} if it did. */
	boolean activate(String id, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'available', scheduled_at = ?"
				+ " WHERE id = " + idParam() + " AND state = 'pending'", (ps) -> {
					setInstant(ps, 1, now);
					ps.setString(2, id);
				}) == 1;
	}

	/** Number of jobs per queue and state, queues in name order. */
	Map<String, Map<JobState, Long>> countByQueueAndState() {
		Map<String, Map<JobState, Long>> counts = new TreeMap<>();
		this.jdbc.query("SELECT queue, state, count(*) FROM " + this.table + " GROUP BY queue, state", (rs) -> {
			counts.computeIfAbsent(rs.getString(1), (queue) -> new EnumMap<>(JobState.class))
				.put(JobState.fromValue(rs.getString(2)), rs.getLong(3));
		});
		return counts;
	}

	/** Reads the job table (no row): throws when it is missing or the database unreachable. */
	void checkTable() {
		this.jdbc.query("SELECT id FROM " + this.table + " WHERE id = " + idParam(), (rs) -> {
		}, new UUID(0, 0).toString());
	}

	/**
	 * A warning when nothing removes the job table's dead row versions and index entries, or
	 * {@code null}: on PostgreSQL, autovacuum off for the server ({@code autovacuum} or
	 * {@code track_counts} off) or for the table ({@code autovacuum_enabled = false}).
	 */
	@Nullable String vacuumWarning() {
		if (this.platform != JdbcPlatform.POSTGRESQL) {
			return null;
		}
		List<String> reasons = this.jdbc.query("SELECT current_setting('autovacuum') = 'off',"
				+ " current_setting('track_counts') = 'off', coalesce((SELECT lower(option_value) IN ('false', 'off', 'no', '0')"
				+ " FROM pg_options_to_table(c.reloptions) WHERE option_name = 'autovacuum_enabled'), false)"
				+ " FROM pg_class c WHERE c.oid = to_regclass(?)", (rs) -> {
					List<String> found = new ArrayList<>();
					if (rs.next()) {
						if (rs.getBoolean(1)) {
							found.add("the server runs with autovacuum = off");
						}
						if (rs.getBoolean(2)) {
							found.add("the server runs with track_counts = off, which autovacuum needs");
						}
						if (rs.getBoolean(3)) {
							found.add("the table is set autovacuum_enabled = false");
						}
					}
					return found;
				}, this.table);
		if (reasons == null || reasons.isEmpty()) {
			return null;
		}
		return "Autovacuum does not process the OJS job table " + this.table + " (" + String.join("; ", reasons)
				+ "): a claim from the front of a queue walks the index entries of the jobs claimed since the table"
				+ " was last vacuumed, so such claims get slower the more jobs run. Turn autovacuum on for it, or"
				+ " VACUUM " + this.table + " regularly.";
	}

}
