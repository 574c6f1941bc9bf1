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

	/** Creates the lease row for {@code holder}; throws a duplicate key error when it exists. */
	void insert(String holder, Duration ttl) {
		this.jdbc.update("INSERT INTO " + this.leases + " (name, holder, expires_at) VALUES (?, ?, "
				+ this.dbNowPlusMicros + ")", (ps) -> {
					ps.setString(1, EVALUATOR_LEASE);
					ps.setString(2, holder);
					ps.setLong(3, ttl.toNanos() / 1000);
				});
	}

	/** Deletes the lease row if {@code holder} holds it, so the next node to ask takes it at once. */
	void release(String holder) {
		this.jdbc.update("DELETE FROM " + this.leases + " WHERE name = ? AND holder = ?", EVALUATOR_LEASE, holder);
	}

	/** Who holds the lease now, or {@code null} when nobody does. */
	@Nullable String holder() {
		List<String> holders = this.jdbc.queryForList(
				"SELECT holder FROM " + this.leases + " WHERE name = ? AND expires_at > " + this.dbNow, String.class,
				EVALUATOR_LEASE);
		return holders.isEmpty() ? null : holders.get(0);
	}

}
