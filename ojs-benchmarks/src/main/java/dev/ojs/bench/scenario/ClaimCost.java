package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcStoreSettings;

/**
 * What the worker's claim costs PostgreSQL: its due-row selection (the front claim's
 * {@code prio} and {@code due} parts, {@code PostgresClaimSql}) run under
 * {@code EXPLAIN (ANALYZE, BUFFERS)}, the median execution time of five runs and the buffers
 * of the last. Measured with the table as the run left it (no statistics, as with autovacuum
 * off) and again after {@code ANALYZE}. On MariaDB, the worker's claim itself
 * ({@code JdbcJobStore.claim}, all of its statements) timed by the client in a rolled-back
 * transaction, and the session's index reads in place of buffers.
 *
 * @param millis median execution time, no statistics
 * @param buffers shared buffers touched, no statistics
 * @param analyzedMillis median execution time after {@code ANALYZE}
 * @param analyzedBuffers shared buffers touched after {@code ANALYZE}
 * @param plan the plan after {@code ANALYZE}, as PostgreSQL prints it
 */
record ClaimCost(double millis, long buffers, double analyzedMillis, long analyzedBuffers, String plan) {

	private static final int RUNS = 5;

	static ClaimCost measure(String jdbcUrl, String table, String type, int limit) {
		if (BenchDatabase.isMariaDb(jdbcUrl)) {
			return measureMariaDb(jdbcUrl, table, type, limit);
		}
		// the front claim's due selection: the queue's priorities by a loose index scan, then each one's due range
		String claimable = "state IN ('available', 'scheduled', 'retryable')";
		String query = "WITH RECURSIVE prio AS ((SELECT priority FROM " + table + " WHERE " + claimable
				+ " AND queue = 'default' ORDER BY priority DESC LIMIT 1) UNION ALL SELECT (SELECT p.priority FROM "
				+ table + " p WHERE p." + claimable + " AND p.queue = 'default' AND p.priority < prio.priority"
				+ " ORDER BY p.priority DESC LIMIT 1) FROM prio WHERE prio.priority IS NOT NULL)"
				+ " SELECT d.id FROM prio, LATERAL (SELECT id, priority, scheduled_at FROM " + table + " WHERE "
				+ claimable + " AND queue = 'default' AND scheduled_at <= now() AND (expires_at IS NULL OR expires_at > now())"
				+ " AND type = ANY(ARRAY['" + type + "']) AND priority = prio.priority ORDER BY scheduled_at, id LIMIT "
				+ limit + " FOR UPDATE SKIP LOCKED) d WHERE prio.priority IS NOT NULL"
				+ " ORDER BY d.priority DESC, d.scheduled_at, d.id LIMIT " + limit;
		try (HikariDataSource dataSource = BenchDatabase.dataSource(jdbcUrl, 1, "bench-claim-cost")) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			double[] cold = run(jdbc, query);
			jdbc.execute("ANALYZE " + table);
			double[] analyzed = run(jdbc, query);
			String plan = String.join(System.lineSeparator(),
					jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) " + query, String.class));
			return new ClaimCost(cold[0], (long) cold[1], analyzed[0], (long) analyzed[1], plan);
		}
	}

	/** Median execution time (ms) and the last run's buffers. */
	private static double[] run(JdbcTemplate jdbc, String query) {
		double[] times = new double[RUNS];
		long buffers = 0;
		for (int i = 0; i < RUNS; i++) {
			String json = jdbc.queryForObject("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + query, String.class);
			JsonNode root = new JsonMapper().readTree(json).path(0);
			times[i] = root.path("Execution Time").asDouble();
			JsonNode plan = root.path("Plan");
			buffers = plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
		}
		Arrays.sort(times);
		return new double[] { times[RUNS / 2], buffers };
	}

	private static ClaimCost measureMariaDb(String jdbcUrl, String table, String type, int limit) {
		String prefix = table.substring(0, table.length() - "jobs".length());
		try (HikariDataSource dataSource = BenchDatabase.dataSource(jdbcUrl, 1, "bench-claim-cost")) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
			JdbcJobStore store = new JdbcJobStore(dataSource, new JdbcStoreSettings(prefix));
			Runnable claim = () -> store.claim("bench-claim-cost", "default", Map.of(type, Duration.ofMinutes(5)), limit);
			double[] cold = runMariaDb(jdbc, tx, claim);
			jdbc.execute("ANALYZE TABLE " + table);
			double[] analyzed = runMariaDb(jdbc, tx, claim);
			return new ClaimCost(cold[0], (long) cold[1], analyzed[0], (long) analyzed[1],
					"MariaDbClaimSql claim, index reads: " + (long) analyzed[1]);
		}
	}

	/**
	 * Median time (ms) of the worker's claim, run in a rolled-back transaction that it joins
	 * (on the same connection, so the session's counters are its own), and the last run's
	 * index reads.
	 */
	private static double[] runMariaDb(JdbcTemplate jdbc, TransactionTemplate tx, Runnable claim) {
		double[] times = new double[RUNS];
		long reads = 0;
		for (int i = 0; i < RUNS; i++) {
			long[] result = tx.execute((status) -> {
				status.setRollbackOnly();
				long before = indexReads(jdbc);
				long started = System.nanoTime();
				claim.run();
				long nanos = System.nanoTime() - started;
				return new long[] { nanos, indexReads(jdbc) - before };
			});
			times[i] = result[0] / 1e6;
			reads = result[1];
		}
		Arrays.sort(times);
		return new double[] { times[RUNS / 2], reads };
	}

	private static long indexReads(JdbcTemplate jdbc) {
		return jdbc.query("SHOW SESSION STATUS LIKE 'Handler_%'", (rs) -> {
			long reads = 0;
			while (rs.next()) {
				String name = rs.getString(1);
				if (name.startsWith("Handler_read_") || name.equals("Handler_icp_attempts")) {
					reads += rs.getLong(2);
				}
			}
			return reads;
		});
	}

}
