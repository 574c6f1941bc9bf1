package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.PublishedHandler;

/**
 * The SQL of the published handlers, {@code <prefix>handlers}: a row per job type, replaced
 * by the node that publishes it last.
 */
final class HandlerSql extends SqlSupport {

	private static final String COLUMNS = "type, queue, priority, application_policy, handler_policy,"
			+ " application, node_id, published_at";

	private final JobRows rows;

	private final String handlers;

	/** An insert of one handler row that replaces the row of its type. */
	private final String upsert;

	HandlerSql(SqlSupport shared, JobRows rows) {
		super(shared);
		this.rows = rows;
		this.handlers = shared.settings.handlersTableName();
		this.upsert = switch (this.platform) {
			case POSTGRESQL -> "INSERT INTO " + this.handlers + " (" + COLUMNS
					+ ") VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?) ON CONFLICT (type)"
					+ " DO UPDATE SET queue = EXCLUDED.queue, priority = EXCLUDED.priority,"
					+ " application_policy = EXCLUDED.application_policy, handler_policy = EXCLUDED.handler_policy,"
					+ " application = EXCLUDED.application, node_id = EXCLUDED.node_id, published_at = EXCLUDED.published_at";
			// VALUES(column) is accepted by MariaDB and (deprecated but working) MySQL 8
			case MARIADB, MYSQL -> "INSERT INTO " + this.handlers + " (" + COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
					+ " queue = VALUES(queue), priority = VALUES(priority), application_policy = VALUES(application_policy),"
					+ " handler_policy = VALUES(handler_policy), application = VALUES(application),"
					+ " node_id = VALUES(node_id), published_at = VALUES(published_at)";
			case H2 -> "MERGE INTO " + this.handlers + " (" + COLUMNS + ") KEY (type) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
		};
	}

	/** Inserts or replaces the row of each handler's type, in type order: one batch. */
	void publish(List<PublishedHandler> handlers) {
		List<PublishedHandler> sorted = handlers.stream().sorted(Comparator.comparing(PublishedHandler::type)).toList();
		this.jdbc.batchUpdate(this.upsert, sorted, sorted.size(), (ps, handler) -> {
			ps.setString(1, handler.type());
			ps.setString(2, handler.queue());
			ps.setInt(3, handler.priority());
			ps.setString(4, handler.applicationPolicy().toJson());
			ps.setString(5, handler.handlerPolicy().toJson());
			ps.setString(6, handler.application());
			ps.setString(7, handler.nodeId());
			setInstant(ps, 8, handler.publishedAt());
		});
	}

	/** The published handler of {@code type}, or {@code null}. */
	@Nullable PublishedHandler find(String type) {
		List<PublishedHandler> found = this.jdbc
			.query("SELECT " + COLUMNS + " FROM " + this.handlers + " WHERE type = ?", this::map, type);
		return found.isEmpty() ? null : found.get(0);
	}

	/** Every published handler, by type. */
	List<PublishedHandler> all() {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.handlers + " ORDER BY type", this::map);
	}

	/** The queues of the published handlers. */
	List<String> queues() {
		return this.jdbc.queryForList("SELECT DISTINCT queue FROM " + this.handlers, String.class);
	}

	private PublishedHandler map(ResultSet rs, int rowNum) throws SQLException {
		return new PublishedHandler(rs.getString(1), rs.getString(2), rs.getInt(3), this.rows.policy(rs.getString(4)),
				this.rows.policy(rs.getString(5)), rs.getString(6), rs.getString(7), getInstant(rs, 8));
	}

}
