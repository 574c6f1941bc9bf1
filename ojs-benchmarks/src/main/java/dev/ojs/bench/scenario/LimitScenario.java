package dev.ojs.bench.scenario;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.LimitOptions;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;

/**
 * The machine's own limit for job-shaped rows, with no engine in the way: {@code --limit-clients}
 * connections of this JVM each cycle through inserting {@code --limit-batch} rows, claiming as
 * many due rows with {@code FOR UPDATE SKIP LOCKED} (marking them active) and completing the
 * claimed rows in one statement, each step its own transaction. Two variants on fresh tables:
 * rows kept (marked completed) and rows deleted. The first fifth of each variant's time is
 * not measured. Its kept-rows rate is what the other scenarios' rates are a fraction of.
 */
final class LimitScenario implements Scenario {

	@Override
	public String name() {
		return "limit";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		LimitOptions limit = options.limit();
		boolean mariaDb = BenchDatabase.isMariaDb(options.jdbcUrl());
		ResultTable table = new ResultTable("limit: plain JDBC, " + limit.clients() + " clients, cycles of "
				+ limit.batch() + " rows (insert; claim FOR UPDATE SKIP LOCKED; complete), no engine", "rows",
				"jobs", "seconds", "jobs/s", "java cpu%", "db cpu%", "machine cpu%", "java µs/job", "db µs/job", "deadlocks");
		double[] rates = new double[2];
		ScenarioResult result = null;
		try (HikariDataSource dataSource = BenchDatabase.dataSource(options.jdbcUrl(), limit.clients(), "bench-limit")) {
			for (boolean delete : new boolean[] { false, true }) {
				String jobs = environment.newPrefix() + "jobs";
				create(dataSource, jobs, mariaDb);
				Measured measured = measure(dataSource, jobs, delete, limit);
				CpuUsage.Split cpu = measured.cpu();
				table.row(delete ? "deleted" : "kept", measured.jobs(), measured.seconds(),
						measured.jobs() / measured.seconds(), cpu.java(), cpu.postgres(), cpu.machine(),
						cpu.javaMicrosPer(measured.jobs()), cpu.postgresMicrosPer(measured.jobs()), measured.rolledBack());
				rates[delete ? 1 : 0] = measured.jobs() / measured.seconds();
				if (!delete) {
					result = new ScenarioResult(name(), measured.jobs(), measured.seconds(), LatencySummary.EMPTY)
						.with("java_us_per_job", cpu.javaMicrosPer(measured.jobs()))
						.with("pg_us_per_job", cpu.postgresMicrosPer(measured.jobs()));
				}
			}
		}
		table.print(environment.out());
		return result.with("deleted_jobs_per_sec", rates[1])
			.with("clients", limit.clients())
			.with("batch", limit.batch());
	}

	/**
	 * The figures of one variant.
	 *
	 * @param jobs rows completed in the measured window
	 * @param seconds the window
	 * @param cpu CPU use in the window
	 * @param rolledBack cycles rolled back by a deadlock, warm-up included
	 */
	record Measured(long jobs, double seconds, CpuUsage.Split cpu, long rolledBack) {

	}

	private static Measured measure(HikariDataSource dataSource, String jobs, boolean delete, LimitOptions limit)
			throws Exception {
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong completed = new AtomicLong();
		AtomicLong rolledBack = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> clients = new ArrayList<>();
		for (int c = 0; c < limit.clients(); c++) {
			Thread client = new Thread(
					() -> cycle(dataSource, jobs, delete, limit.batch(), running, completed, rolledBack, failure),
					"bench-limit-" + c);
			client.start();
			clients.add(client);
		}
		try {
			SteadyStateScenario.sleep(limit.duration().toNanos() / 5, failure);
			long before = completed.get();
			CpuUsage cpuStart = CpuUsage.now();
			long start = System.nanoTime();
			SteadyStateScenario.sleep(limit.duration().toNanos(), failure);
			long done = completed.get() - before;
			double seconds = (System.nanoTime() - start) / 1e9;
			return new Measured(done, seconds, CpuUsage.now().since(cpuStart), rolledBack.get());
		}
		finally {
			running.set(false);
			for (Thread client : clients) {
				client.join();
			}
		}
	}

	private static void cycle(HikariDataSource dataSource, String jobs, boolean delete, int batch,
			AtomicBoolean running, AtomicLong completed, AtomicLong rolledBack, AtomicReference<Throwable> failure) {
		String insert = "INSERT INTO " + jobs + " (queue, type, state, args, scheduled_at) VALUES "
				+ String.join(", ", Collections.nCopies(batch, "('default', 'bench.noop', 'available', '[1]', ?)"));
		String claim = "SELECT id FROM " + jobs + " WHERE queue = 'default' AND state = 'available'"
				+ " AND scheduled_at <= ? ORDER BY scheduled_at, id LIMIT " + batch + " FOR UPDATE SKIP LOCKED";
		try (Connection connection = dataSource.getConnection()) {
			connection.setAutoCommit(false);
			// as the worker's own transactions: no gap locks on MariaDB
			connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			while (running.get()) {
				try {
					cycle(connection, insert, claim, jobs, delete, batch, completed);
				}
				catch (SQLTransactionRollbackException ex) {
					// a deadlock or serialization failure (InnoDB): the cycle's work is undone, the next one goes on
					connection.rollback();
					rolledBack.incrementAndGet();
				}
			}
		}
		catch (Throwable ex) {
			failure.compareAndSet(null, ex);
		}
	}

	/** One cycle: insert a batch, claim as many due rows, complete them; each a transaction. */
	private static void cycle(Connection connection, String insert, String claim, String jobs, boolean delete,
			int batch, AtomicLong completed) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(insert)) {
			Timestamp now = Timestamp.from(Instant.now());
			for (int i = 1; i <= batch; i++) {
				statement.setTimestamp(i, now);
			}
			statement.executeUpdate();
		}
		connection.commit();
		List<Long> ids = new ArrayList<>(batch);
		try (PreparedStatement statement = connection.prepareStatement(claim)) {
			statement.setTimestamp(1, Timestamp.from(Instant.now()));
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					ids.add(rows.getLong(1));
				}
			}
		}
		if (ids.isEmpty()) {
			connection.commit();
			return;
		}
		update(connection, "UPDATE " + jobs + " SET state = 'active', attempt = attempt + 1, attempted_at = ?"
				+ " WHERE id IN ", true, ids);
		connection.commit();
		if (delete) {
			update(connection, "DELETE FROM " + jobs + " WHERE id IN ", false, ids);
		}
		else {
			update(connection, "UPDATE " + jobs + " SET state = 'completed', completed_at = ? WHERE id IN ", true, ids);
		}
		connection.commit();
		completed.addAndGet(ids.size());
	}

	/** Runs {@code sql} (ending in {@code IN }) with the ids bound, after the time now when {@code stamped}. */
	private static void update(Connection connection, String sql, boolean stamped, List<Long> ids) throws SQLException {
		String in = "(" + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")";
		try (PreparedStatement statement = connection.prepareStatement(sql + in)) {
			int first = 1;
			if (stamped) {
				statement.setTimestamp(first++, Timestamp.from(Instant.now()));
			}
			for (int i = 0; i < ids.size(); i++) {
				statement.setLong(first + i, ids.get(i));
			}
			statement.executeUpdate();
		}
	}

	/** A minimal job-shaped table with the index a claim of due rows uses. */
	private static void create(HikariDataSource dataSource, String jobs, boolean mariaDb) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			if (mariaDb) {
				statement.execute("CREATE TABLE " + jobs + " (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
						+ " queue VARCHAR(100) NOT NULL, type VARCHAR(100) NOT NULL, state VARCHAR(20) NOT NULL,"
						+ " priority INT NOT NULL DEFAULT 0, args LONGTEXT NOT NULL, attempt INT NOT NULL DEFAULT 0,"
						+ " scheduled_at DATETIME(6) NOT NULL, attempted_at DATETIME(6) NULL,"
						+ " completed_at DATETIME(6) NULL, INDEX " + jobs + "_due (queue, state, scheduled_at, id))");
			}
			else {
				statement.execute("CREATE TABLE " + jobs + " (id BIGSERIAL PRIMARY KEY, queue VARCHAR(100) NOT NULL,"
						+ " type VARCHAR(100) NOT NULL, state VARCHAR(20) NOT NULL, priority INT NOT NULL DEFAULT 0,"
						+ " args JSONB NOT NULL, attempt INT NOT NULL DEFAULT 0, scheduled_at TIMESTAMPTZ NOT NULL,"
						+ " attempted_at TIMESTAMPTZ, completed_at TIMESTAMPTZ)");
				statement.execute("CREATE INDEX " + jobs + "_due ON " + jobs + " (queue, scheduled_at, id)"
						+ " WHERE state = 'available'");
			}
		}
	}

}
