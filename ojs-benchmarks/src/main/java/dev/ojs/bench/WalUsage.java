package dev.ojs.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * What PostgreSQL wrote during a measurement: write-ahead log bytes, exact (from the WAL
 * insert position, PostgreSQL 10+), and from the cumulative statistics full page images
 * ({@code pg_stat_wal}, 14+), buffers that backends had to write out themselves to make room
 * in {@code shared_buffers}, and checkpoints ({@code pg_stat_bgwriter} up to 16,
 * {@code pg_stat_io} and {@code pg_stat_checkpointer} from 17). Backends report those
 * statistics at most once a second, so over a run of a few seconds they are short by up to
 * its last second. A statistic the server does not have is {@code -1}. Every figure is
 * server-wide: it includes other clients' writes. On MariaDB the log is InnoDB's redo log
 * ({@code Innodb_lsn_current}), and the other figures are {@code -1}.
 *
 * @param walBytes WAL bytes written
 * @param fullPageImages full page images logged (the first change of a page after a checkpoint)
 * @param backendWrites dirty buffers written by backends (evictions: the working set exceeds {@code shared_buffers})
 * @param checkpoints checkpoints started (timed or requested)
 */
public record WalUsage(long walBytes, long fullPageImages, long backendWrites, long checkpoints) {

	private static final String WAL_BYTES = "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint";

	private static final String FULL_PAGE_IMAGES = "SELECT wal_fpi FROM pg_stat_wal";

	private static final String[] BACKEND_WRITES = { "SELECT buffers_backend FROM pg_stat_bgwriter",
			"SELECT sum(writes)::bigint FROM pg_stat_io WHERE backend_type = 'client backend'" };

	private static final String[] CHECKPOINTS = { "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter",
			"SELECT num_timed + num_requested FROM pg_stat_checkpointer" };

	private static final String REDO_BYTES = "SELECT variable_value FROM information_schema.global_status"
			+ " WHERE variable_name = 'INNODB_LSN_CURRENT'";

	/** A reading now, or {@code null} where not even the log position can be read. */
	public static @Nullable WalUsage now(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			if (BenchDatabase.isMariaDb(connection.getMetaData().getURL())) {
				long redo = optional(connection, REDO_BYTES);
				return (redo < 0) ? null : new WalUsage(redo, -1, -1, -1);
			}
			long walBytes;
			try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(WAL_BYTES)) {
				rs.next();
				walBytes = rs.getLong(1);
			}
			return new WalUsage(walBytes, optional(connection, FULL_PAGE_IMAGES), optional(connection, BACKEND_WRITES),
					optional(connection, CHECKPOINTS));
		}
		catch (SQLException ex) {
			return null;
		}
	}

	/**
	 * The answer to the first of {@code queries} this server knows, or {@code -1} (the
	 * connection is in autocommit, so a failed query does not abort the next).
	 */
	private static long optional(Connection connection, String... queries) {
		for (String query : queries) {
			try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
				if (rs.next()) {
					return rs.getLong(1);
				}
			}
			catch (SQLException ex) {
				// an older or newer server: try the next form
			}
		}
		return -1;
	}

	/** What was written between an earlier reading and this one ({@code -1} where either lacks the figure). */
	public WalUsage since(WalUsage earlier) {
		return new WalUsage(this.walBytes - earlier.walBytes, delta(this.fullPageImages, earlier.fullPageImages),
				delta(this.backendWrites, earlier.backendWrites), delta(this.checkpoints, earlier.checkpoints));
	}

	/** What was written between two readings, or {@code null} when either is missing. */
	public static @Nullable WalUsage between(@Nullable WalUsage start, @Nullable WalUsage end) {
		return (start != null && end != null) ? end.since(start) : null;
	}

	/** Headers of {@link #cells}: WAL per job, full page images, backend writes, checkpoints. */
	public static final List<String> HEADERS = List.of("WAL B/job", "page images", "backend writes", "checkpoints");

	/**
	 * Adds what was written per job to {@code result} ({@code wal_bytes_per_job},
	 * {@code full_page_images}, {@code backend_buffer_writes}, {@code checkpoints}).
	 */
	public static ScenarioResult addTo(ScenarioResult result, @Nullable WalUsage wal, long jobs) {
		if (wal == null || jobs <= 0) {
			return result;
		}
		return result.with("wal_bytes_per_job", (double) wal.walBytes() / jobs)
			.with("full_page_images", wal.fullPageImages())
			.with("backend_buffer_writes", wal.backendWrites())
			.with("checkpoints", wal.checkpoints());
	}

	/** The table cells under {@link #HEADERS}, "n/a" without a reading. */
	public static List<Object> cells(@Nullable WalUsage wal, long jobs) {
		if (wal == null || jobs <= 0) {
			return List.of("n/a", "n/a", "n/a", "n/a");
		}
		return List.of(wal.walBytes() / jobs, wal.fullPageImages(), wal.backendWrites(), wal.checkpoints());
	}

	private static long delta(long now, long earlier) {
		return (now < 0 || earlier < 0) ? -1 : now - earlier;
	}

}
