package dev.ojs.jdbc;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The SQL of the leases, {@code <prefix>leases}: the recurring-job evaluator's row, whose
 * holder evaluates the recurring jobs. The lease is the one place that reads the database's
 * clock: the nodes that compete for it may disagree about the time, the database they share
 * orders them.
 */
final class LeaseSql extends SqlSupport {

	/** The evaluator's row in the lease table. */
	static final String EVALUATOR_LEASE = "cron-evaluator";

	private final String leases;

	/** The database's current time. */
	private final String dbNow;

	/** The database's current time plus {@code ?} microseconds. */
	private final String dbNowPlusMicros;

	/** Inserts the lease row unless there is one. */
	private final String insert;

	LeaseSql(SqlSupport shared) {
		super(shared);
		this.leases = shared.settings.leasesTableName();
		this.dbNow = switch (this.platform) {
			case POSTGRESQL -> "now()";
			case MARIADB, MYSQL -> "UTC_TIMESTAMP(6)";
			case H2 -> "CURRENT_TIMESTAMP(6)";
		};
		this.dbNowPlusMicros = switch (this.platform) {
			case POSTGRESQL -> "now() + make_interval(secs => ? / 1000000.0)";
			case MARIADB, MYSQL -> "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))";
			case H2 -> "DATEADD(MICROSECOND, ?, CURRENT_TIMESTAMP(6))";
		};
		String columns = this.leases + " (name, holder, expires_at) ";
		this.insert = switch (this.platform) {
			case POSTGRESQL -> "INSERT INTO " + columns + "VALUES (?, ?, " + this.dbNowPlusMicros + ") ON CONFLICT DO NOTHING";
			case MARIADB, MYSQL -> "INSERT IGNORE INTO " + columns + "VALUES (?, ?, " + this.dbNowPlusMicros + ")";
			case H2 -> "INSERT INTO " + columns + "SELECT ?, ?, " + this.dbNowPlusMicros + " FROM DUAL WHERE NOT EXISTS"
					+ " (SELECT 1 FROM " + this.leases + " WHERE name = ?)";
		};
	}

	/** Extends the lease while {@code holder} holds it or it expired; {@code true} if it did. */
	boolean renew(String holder, Duration ttl) {
		return this.jdbc.update("UPDATE " + this.leases + " SET holder = ?, expires_at = " + this.dbNowPlusMicros
				+ " WHERE name = ? AND (holder = ? OR expires_at < " + this.dbNow + ")", (ps) -> {
					ps.setString(1, holder);
					ps.setLong(2, ttl.toNanos() / 1000);
					ps.setString(3, EVALUATOR_LEASE);
					ps.setString(4, holder);
				}) == 1;
	}

	/**
	 * Creates the lease row for {@code holder} unless there is one; {@code true} if it did. A
	 * lease held by another node is no error (which drivers and servers would log at every tick),
	 * and on PostgreSQL neither is a node that creates it at the same moment; on H2 that one
	 * meets a duplicate key, and on MariaDB, where the row was deleted moments before, it may be
	 * a deadlock's victim (a {@code NOT EXISTS} check would let any two nodes lock the same gap
	 * and deadlock). Only the table's first lease is created: a released one stays.
	 */
	boolean insert(String holder, Duration ttl) {
		return this.jdbc.update(this.insert, (ps) -> {
			ps.setString(1, EVALUATOR_LEASE);
			ps.setString(2, holder);
			ps.setLong(3, ttl.toNanos() / 1000);
			if (this.platform == JdbcPlatform.H2) {
				ps.setString(4, EVALUATOR_LEASE);
			}
		}) == 1;
	}

	/**
	 * Ends the lease if {@code holder} holds it, so the next node to ask takes it at once: the row
	 * stays, expired, so the nodes that ask next only update it, one after the other.
	 */
	void release(String holder) {
		this.jdbc.update("UPDATE " + this.leases + " SET expires_at = " + this.dbNowPlusMicros
				+ " WHERE name = ? AND holder = ?", (ps) -> {
					ps.setLong(1, -1_000_000);
					ps.setString(2, EVALUATOR_LEASE);
					ps.setString(3, holder);
				});
	}

	/** Who holds the lease now, or {@code null} when nobody does. */
	@Nullable String holder() {
		List<String> holders = this.jdbc.queryForList(
				"SELECT holder FROM " + this.leases + " WHERE name = ? AND expires_at > " + this.dbNow, String.class,
				EVALUATOR_LEASE);
		return holders.isEmpty() ? null : holders.get(0);
	}

}
