package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;

/**
 * MariaDB 10.6+ and MySQL 8.0+. There is no {@code UPDATE ... RETURNING}, so a claim is two
 * statements in one READ COMMITTED transaction: {@code SELECT ... ORDER BY claim_rank,
 * scheduled_at, id LIMIT n FOR UPDATE SKIP LOCKED} over the generated-column index
 * {@code (claim_queue, claim_rank, scheduled_at, id)} (which delivers claim order, so InnoDB
 * stops after {@code n} rows instead of locking every due row before a filesort), then
 * {@code UPDATE ... WHERE id IN (...)}. Attempt outcomes are batches of per-row guarded
 * updates whose update counts tell which rows were written. {@code DATETIME(6)} columns hold
 * UTC, bound as {@link LocalDateTime} so the driver never shifts time zones.
 */
final class MariaDbDialect extends JdbcDialect {

	MariaDbDialect(JdbcPlatform platform, JdbcStoreSettings settings, DataSource dataSource) {
		super(platform, settings, dataSource);
	}

	@Override
	void setInstant(PreparedStatement ps, int index, @Nullable Instant value) throws SQLException {
		ps.setObject(index, (value != null) ? utcDateTime(value) : null);
	}

	@Override
	@Nullable Instant getInstant(ResultSet rs, int index) throws SQLException {
		LocalDateTime value = rs.getObject(index, LocalDateTime.class);
		return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
	}

	@Override
	String liveUniqueKeyPredicate() {
		return "type = ? AND live_unique_key = ?";
	}

	/** {@code VALUES(column)} is accepted by MariaDB and (deprecated but working) MySQL 8. */
	@Override
	String upsertHandlerSql() {
		return "INSERT INTO " + this.handlersTable + " (type, queue, priority, application_policy, handler_policy,"
				+ " application, node_id, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
				+ " queue = VALUES(queue), priority = VALUES(priority), application_policy = VALUES(application_policy),"
				+ " handler_policy = VALUES(handler_policy), application = VALUES(application),"
				+ " node_id = VALUES(node_id), published_at = VALUES(published_at)";
	}

	/**
	 * {@code ON DUPLICATE KEY UPDATE id = id} turns a clash on {@code (type, live_unique_key)}
	 * into a no-op (ids are fresh UUIDv7s, so the primary key never clashes); the live holder
	 * is then read back with a locking read ({@code LOCK IN SHARE MODE}, which MariaDB and
	 * MySQL 8 both accept): a plain read in a REPEATABLE READ transaction (the InnoDB default)
	 * would see the transaction's snapshot, which misses a holder committed since.
	 */
	@Override
	@Nullable String insertUnique(InsertRow row) {
		this.jdbc.update(insertSql(1) + " ON DUPLICATE KEY UPDATE id = id", (ps) -> bindInsert(ps, 1, row));
		return findLiveIdByUniqueKey(row.type(), row.uniqueKey(), " LOCK IN SHARE MODE");
	}

	/** The generated column {@code live_expires_at} is {@code expires_at} while the job waits to run. */
	@Override
	String expiredPredicate() {
		return "live_expires_at <= ?";
	}

	@Override
	String expiryOrder() {
		return "live_expires_at";
	}

	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now) {
		List<String> types = anyType(visibilityByType) ? List.of() : new ArrayList<>(visibilityByType.keySet());
		String select = "SELECT " + SELECT_COLUMNS + " FROM " + this.table + " WHERE claim_queue = ?"
				+ " AND scheduled_at <= ?" + NOT_EXPIRED + typeFilter(types)
				+ " ORDER BY claim_rank, scheduled_at, id LIMIT ? FOR UPDATE SKIP LOCKED";
		return this.claimTx.execute((status) -> {
			List<Job> rows = this.jdbc.query(select, (ps) -> {
				ps.setString(1, queue);
				setInstant(ps, 2, now);
				setInstant(ps, 3, now);
				int index = 4;
				for (String type : types) {
					ps.setString(index++, type);
				}
				ps.setInt(index, limit);
			}, this::mapJob);
			if (rows.isEmpty()) {
				return rows;
			}
			this.jdbc.update("UPDATE " + this.table + " SET state = 'active', attempt = attempt + 1, locked_by = ?,"
					+ " started_at = ?, locked_until = " + lockedUntilExpression(visibilityByType, "type")
					+ " WHERE id IN (" + markers(rows.size()) + ")", (ps) -> {
						ps.setString(1, nodeId);
						setInstant(ps, 2, now);
						int index = bindLockedUntil(ps, 3, visibilityByType, now);
						for (Job row : rows) {
							ps.setString(index++, row.id());
						}
					});
			List<Job> jobs = new ArrayList<>(rows.size());
			for (Job row : rows) {
				jobs.add(claimed(row, nodeId, now, Timestamps.plus(now, visibility(visibilityByType, row.type()))));
			}
			return jobs;
		});
	}

}
