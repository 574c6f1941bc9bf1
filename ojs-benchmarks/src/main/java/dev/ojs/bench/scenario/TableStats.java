package dev.ojs.bench.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Size and upkeep of a job table, read from the database's statistics. PostgreSQL: the heap's
 * size ({@code pg_relation_size}), all its indexes' ({@code pg_indexes_size}) and each index's,
 * live and dead tuples and the vacuums and autovacuums run ({@code pg_stat_user_tables}; the
 * statistics lag by up to a second). MariaDB: InnoDB's estimates from
 * {@code information_schema.tables} (data and index length, rows) and each index's pages from
 * {@code mysql.innodb_index_stats} (both only as fresh as InnoDB's last statistics
 * recalculation), and, in place of dead tuples, the server-wide purge backlog (history list
 * length: undo records of deleted or changed rows not yet purged); there are no vacuum counts.
 */
final class TableStats {

	/** The figures every sample has; each index adds {@code index_<name>_bytes}. */
	static final List<String> COLUMNS = List.of("table_bytes", "indexes_bytes", "live_rows", "dead_rows",
			"vacuum_count", "autovacuum_count");

	private final JdbcTemplate jdbc;

	private final String table;

	private final boolean mariaDb;

	TableStats(JdbcTemplate jdbc, String table, boolean mariaDb) {
		this.jdbc = jdbc;
		this.table = table;
		this.mariaDb = mariaDb;
	}

	/** The figures now, by column name. */
	Map<String, Double> sample() {
		Map<String, Double> figures = new LinkedHashMap<>();
		if (this.mariaDb) {
			this.jdbc.query("SELECT data_length, index_length, table_rows FROM information_schema.tables"
					+ " WHERE table_schema = database() AND table_name = ?", (rs) -> {
						figures.put("table_bytes", rs.getDouble(1));
						figures.put("indexes_bytes", rs.getDouble(2));
						figures.put("live_rows", rs.getDouble(3));
					}, this.table);
			this.jdbc.query("SELECT count FROM information_schema.innodb_metrics WHERE name = 'trx_rseg_history_len'",
					(rs) -> {
						figures.put("dead_rows", rs.getDouble(1));
					});
			this.jdbc.query("SELECT index_name, stat_value * @@innodb_page_size FROM mysql.innodb_index_stats"
					+ " WHERE database_name = database() AND table_name = ? AND stat_name = 'size' ORDER BY index_name",
					(rs) -> {
						figures.put(indexColumn(rs.getString(1)), rs.getDouble(2));
					}, this.table);
			return figures;
		}
		this.jdbc.query("SELECT pg_relation_size(relid), pg_indexes_size(relid), n_live_tup, n_dead_tup,"
				+ " vacuum_count, autovacuum_count FROM pg_stat_user_tables WHERE relid = to_regclass(?)", (rs) -> {
					for (int i = 0; i < COLUMNS.size(); i++) {
						figures.put(COLUMNS.get(i), rs.getDouble(i + 1));
					}
				}, this.table);
		this.jdbc.query("SELECT indexrelname, pg_relation_size(indexrelid) FROM pg_stat_user_indexes"
				+ " WHERE relid = to_regclass(?) ORDER BY indexrelname", (rs) -> {
					figures.put(indexColumn(rs.getString(1)), rs.getDouble(2));
				}, this.table);
		return figures;
	}

	/** The column of an index: its name without the table prefix, as a CSV-safe name. */
	String indexColumn(String index) {
		String prefix = this.table.substring(0, this.table.length() - "jobs".length());
		String name = index.startsWith(prefix) ? index.substring(prefix.length()) : index;
		return "index_" + name.replaceAll("[^A-Za-z0-9_]", "_") + "_bytes";
	}

}
