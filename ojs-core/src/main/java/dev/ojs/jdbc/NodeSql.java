package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import dev.ojs.worker.NodeInfo;

/**
 * The SQL of the worker nodes, {@code <prefix>nodes}: a row per running node, replaced by
 * each of its heartbeats.
 */
final class NodeSql extends SqlSupport {

	private static final String COLUMNS = "node_id, application, hostname, queues, concurrency, running_jobs,"
			+ " started_at, last_seen_at, version, kind";

	private final String nodes;

	/** Inserts or replaces a node's row: one statement. */
	private final String upsert;

	NodeSql(SqlSupport shared) {
		super(shared);
		this.nodes = shared.settings.nodesTableName();
		this.upsert = switch (this.platform) {
			case POSTGRESQL -> "INSERT INTO " + this.nodes + " (" + COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET"
					+ " application = EXCLUDED.application, hostname = EXCLUDED.hostname, queues = EXCLUDED.queues,"
					+ " concurrency = EXCLUDED.concurrency, running_jobs = EXCLUDED.running_jobs,"
					+ " started_at = EXCLUDED.started_at, last_seen_at = EXCLUDED.last_seen_at,"
					+ " version = EXCLUDED.version, kind = EXCLUDED.kind";
			case MARIADB, MYSQL -> "INSERT INTO " + this.nodes + " (" + COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE application = VALUES(application),"
					+ " hostname = VALUES(hostname), queues = VALUES(queues), concurrency = VALUES(concurrency),"
					+ " running_jobs = VALUES(running_jobs), started_at = VALUES(started_at),"
					+ " last_seen_at = VALUES(last_seen_at), version = VALUES(version), kind = VALUES(kind)";
			case H2 -> "MERGE INTO " + this.nodes + " (" + COLUMNS + ") KEY (node_id)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
		};
	}

	/** Inserts or replaces a node's row. */
	void save(NodeInfo node) {
		this.jdbc.update(this.upsert, (ps) -> {
			ps.setString(1, node.nodeId());
			ps.setString(2, node.application());
			ps.setString(3, node.hostname());
			ps.setString(4, String.join(",", node.queues()));
			ps.setInt(5, node.concurrency());
			ps.setInt(6, node.runningJobs());
			setInstant(ps, 7, node.startedAt());
			setInstant(ps, 8, node.lastSeenAt());
			ps.setString(9, node.version());
			ps.setString(10, node.kind());
		});
	}

	void delete(String nodeId) {
		this.jdbc.update("DELETE FROM " + this.nodes + " WHERE node_id = ?", nodeId);
	}

	/** Deletes nodes not seen since {@code cutoff}; returns how many. */
	int deleteBefore(Instant cutoff) {
		return this.jdbc.update("DELETE FROM " + this.nodes + " WHERE last_seen_at < ?",
				(ps) -> setInstant(ps, 1, cutoff));
	}

	List<NodeInfo> all() {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.nodes + " ORDER BY node_id", this::map);
	}

	private NodeInfo map(ResultSet rs, int rowNum) throws SQLException {
		String queues = rs.getString(4);
		return new NodeInfo(rs.getString(1), rs.getString(2), rs.getString(3),
				(queues == null || queues.isEmpty()) ? List.of() : Arrays.asList(queues.split(",")), rs.getInt(5),
				rs.getInt(6), getInstant(rs, 7), getInstant(rs, 8), rs.getString(9), rs.getString(10));
	}

}
