package dev.ojs.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * What PostgreSQL wrote during a measurement (PostgreSQL 14+): write-ahead log bytes, exact
 * (from the WAL insert position), and from the cumulative statistics full page images
 * ({@code pg_stat_wal}), buffers that backends had to write out themselves to make room in
 * {@code shared_buffers}, and checkpoints ({@code pg_stat_bgwriter}). Backends report those
 * statistics at most once a second, so over a run of a few seconds they are short by up
 * to its last second. Every figure is server-wide: it includes other clients' writes.
 *
 * @param walBytes WAL bytes written
 * @param fullPageImages full page images logged (the first change of a page after a checkpoint)
 * @param backendWrites dirty buffers written by backends (evictions: the working set exceeds {@code shared_buffers})
 * @param checkpoints checkpoints started (timed or requested)
 */
public record WalUsage(long walBytes, long fullPageImages, long backendWrites, long checkpoints) {

	/** A reading now, or {@code null} where the statistics cannot be read (not PostgreSQL 14+). */
	public static WalUsage now(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint,"
						+ " w.wal_fpi, b.buffers_backend,"
						+ " b.checkpoints_timed + b.checkpoints_req FROM pg_stat_wal w, pg_stat_bgwriter b")) {
			rs.next();
			return new WalUsage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
		}
		catch (SQLException ex) {
			return null;
		}
	}

	/** What was written between an earlier reading and this one. */
	public WalUsage since(WalUsage earlier) {
		return new WalUsage(this.walBytes - earlier.walBytes, this.fullPageImages - earlier.fullPageImages,
				this.backendWrites - earlier.backendWrites, this.checkpoints - earlier.checkpoints);
	}

}
