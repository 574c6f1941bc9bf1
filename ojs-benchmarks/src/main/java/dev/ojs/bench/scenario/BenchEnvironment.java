package dev.ojs.bench.scenario;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WalUsage;
import dev.ojs.spring.OjsTemplate;

/**
 * What one scenario run works with: the options, the output, and Spring applications on a
 * table prefix of its own. {@link #close()} closes the applications and drops every table
 * the run created.
 */
public final class BenchEnvironment implements AutoCloseable {

	private static final AtomicInteger CREATED = new AtomicInteger();

	private final BenchmarkOptions options;

	private final PrintStream out;

	private final List<String> prefixes = new ArrayList<>();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final Map<String, ScenarioResult> earlier;

	/** Environments created before this one in this JVM: 0 for a run in a fresh JVM. */
	private final int runsBefore = CREATED.getAndIncrement();

	public BenchEnvironment(BenchmarkOptions options, PrintStream out) {
		this(options, out, Map.of());
	}

	/**
	 * An environment that knows the results of the scenarios run before it.
	 * @param options the options
	 * @param out the output
	 * @param earlier the last measured result of each scenario run so far in this JVM
	 */
	public BenchEnvironment(BenchmarkOptions options, PrintStream out, Map<String, ScenarioResult> earlier) {
		this.options = options;
		this.out = out;
		this.earlier = earlier;
	}

	/** The last measured result of a scenario run earlier, {@code null} when there is none. */
	public @Nullable ScenarioResult earlier(String scenario) {
		return this.earlier.get(scenario);
	}

	/** Scenario runs (warm-ups included) before this one in this JVM; 0 = this run's JVM is fresh. */
	public int runsBefore() {
		return this.runsBefore;
	}

	public BenchmarkOptions options() {
		return this.options;
	}

	public PrintStream out() {
		return this.out;
	}

	/** A fresh table prefix, dropped on {@link #close()}. */
	public String newPrefix() {
		String prefix = BenchDatabase.newTablePrefix("bench");
		this.prefixes.add(prefix);
		return prefix;
	}

	/**
	 * A running benchmark application.
	 *
	 * @param context the application
	 * @param template its {@link OjsTemplate}
	 * @param probe its handlers' and worker's {@link JobProbe}
	 */
	public record Node(ConfigurableApplicationContext context, OjsTemplate template, JobProbe probe) {

	}

	/**
	 * Starts the benchmark application on a table prefix.
	 * @param prefix the job table prefix; its schema is created on the first start
	 * @param worker whether this node runs a worker (false = enqueue-only)
	 * @param properties further properties, overriding the defaults
	 * @return the running application
	 */
	public Node start(String prefix, boolean worker, Map<String, Object> properties) {
		Map<String, Object> all = new LinkedHashMap<>();
		all.put("spring.datasource.url", this.options.jdbcUrl());
		all.put("spring.datasource.hikari.maximum-pool-size", this.options.poolSize());
		all.put("spring.datasource.hikari.pool-name", "bench");
		all.put("spring.main.banner-mode", "off");
		all.put("spring.main.log-startup-info", "false");
		all.put("logging.level.root", "WARN");
		all.put("ojs.jdbc.table-prefix", prefix);
		all.put("ojs.jdbc.initialize-schema", "always");
		all.put("ojs.worker.enabled", worker);
		all.put("ojs.worker.concurrency", this.options.concurrency());
		all.put("ojs.worker.poll-interval", this.options.pollInterval().toString());
		all.put("ojs.retention.completed", this.options.completedRetention().toString());
		all.putAll(properties);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(BenchConfiguration.class)
			// a servlet server only for nodes that serve the HTTP binding
			.web("true".equals(String.valueOf(all.get("ojs.http.enabled"))) ? WebApplicationType.SERVLET
					: WebApplicationType.NONE)
			.properties(all)
			.run();
		this.contexts.add(context);
		BenchDatabase.awaitFilled(context.getBean(HikariDataSource.class));
		return new Node(context, context.getBean(OjsTemplate.class), context.getBean(JobProbe.class));
	}

	/** Starts the benchmark application on a fresh table prefix. */
	public Node start(boolean worker) {
		return start(newPrefix(), worker, Map.of());
	}

	/**
	 * Starts the benchmark application on an existing prefix (whose schema exists).
	 * @param prefix the job table prefix
	 * @param worker whether this node runs a worker
	 * @return the running application
	 */
	public Node restart(String prefix, boolean worker) {
		return start(prefix, worker, Map.of("ojs.jdbc.initialize-schema", "never"));
	}

	/** Closes an application started here (its worker shuts down gracefully). */
	public void stop(Node node) {
		this.contexts.remove(node.context());
		node.context().close();
	}

	/**
	 * Runs a {@code CHECKPOINT} after a preload, so every measured run starts at the same
	 * point of PostgreSQL's checkpoint cycle: otherwise whether a run crosses a checkpoint
	 * (and then logs a full page image on its first write to each page) depends on how much
	 * WAL the runs before it wrote. Needs a superuser or {@code pg_checkpoint}; without
	 * either the run goes on and says so.
	 */
	public void checkpoint() throws SQLException {
		if (BenchDatabase.isMariaDb(this.options.jdbcUrl())) {
			return; // InnoDB checkpoints continuously (fuzzy checkpoints): there is no cycle to align
		}
		try (HikariDataSource dataSource = BenchDatabase.dataSource(this.options.jdbcUrl(), 1, "bench-checkpoint");
				Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CHECKPOINT");
		}
		catch (SQLException ex) {
			this.out.println("CHECKPOINT before the measurement failed, going on without it: " + ex.getMessage());
		}
	}

	/** What PostgreSQL has written so far ({@link WalUsage}), or {@code null} when it cannot be read. */
	public @Nullable WalUsage walUsage() {
		try (HikariDataSource dataSource = BenchDatabase.dataSource(this.options.jdbcUrl(), 1, "bench-wal")) {
			return WalUsage.now(dataSource);
		}
	}

	/** Drops a prefix's tables now (large backlogs), unless tables are kept. */
	public void drop(String prefix) throws SQLException {
		if (this.options.keepTables()) {
			return;
		}
		try (HikariDataSource dataSource = BenchDatabase.dataSource(this.options.jdbcUrl(), 1, "bench-cleanup")) {
			BenchDatabase.dropPrefixed(dataSource, prefix);
		}
		this.prefixes.remove(prefix);
	}

	@Override
	public void close() throws SQLException {
		for (ConfigurableApplicationContext context : List.copyOf(this.contexts)) {
			this.contexts.remove(context);
			context.close();
		}
		if (this.options.keepTables()) {
			this.out.println("kept tables with prefixes " + this.prefixes);
			return;
		}
		try (HikariDataSource dataSource = BenchDatabase.dataSource(this.options.jdbcUrl(), 1, "bench-cleanup")) {
			for (String prefix : this.prefixes) {
				BenchDatabase.dropPrefixed(dataSource, prefix);
			}
		}
	}

}
