package dev.ojs.bench.peer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.BenchmarkOptions;

/**
 * db-scheduler as its README advises for high throughput on PostgreSQL: the
 * {@code lock-and-fetch} polling strategy ({@code SELECT … FOR UPDATE SKIP LOCKED} that marks
 * the batch picked), with the limits of its benchmark for 100 threads (refetch when 2.0 ×
 * threads are left, fetch up to 6.0 × threads), {@code --concurrency} threads, the same poll
 * interval as the starter, immediate execution on. One-time tasks, deleted on completion;
 * the retry scenario's task is retried 1 ms after a failure ({@code OnFailureRetryLater}).
 */
final class DbSchedulerPeer implements Peer {

	static final double LOWER_LIMIT = 2.0;

	static final double UPPER_LIMIT = 6.0;

	private final BenchmarkOptions options;

	private final HikariDataSource dataSource;

	private final String table;

	private final OneTimeTask<Long> noop;

	private final OneTimeTask<Long> failOnce;

	private final SchedulerClient client;

	private final AtomicLong ids = new AtomicLong();

	private final AtomicLong inserted = new AtomicLong();

	private volatile @Nullable PeerProbe probe;

	private @Nullable Scheduler scheduler;

	DbSchedulerPeer(BenchmarkOptions options, String prefix) throws SQLException {
		this.options = options;
		this.table = prefix + "scheduled_tasks";
		this.dataSource = BenchDatabase.dataSource(options.jdbcUrl(), options.poolSize(), "bench-db-scheduler");
		this.noop = Tasks.oneTime("bench-noop", Long.class).execute((instance, context) -> started(instance.getData()));
		this.failOnce = Tasks.oneTime("bench-fail-once", Long.class)
			.onFailure(new FailureHandler.OnFailureRetryLater<>(Duration.ofMillis(1)))
			.execute((instance, context) -> {
				started(instance.getData());
				if (context.getExecution().consecutiveFailures == 0) {
					throw new IllegalStateException("first attempt fails by design");
				}
			});
		createTable();
		this.client = SchedulerClient.Builder.create(this.dataSource, this.noop, this.failOnce)
			.tableName(this.table)
			.build();
	}

	@Override
	public String configuration() {
		return String.format(Locale.ROOT,
				"db-scheduler 16.7.1: lock-and-fetch (%.1f, %.1f), threads %d, polling interval %s, immediate execution,"
						+ " one-time tasks (Java-serialised Long), deleted on completion; retry after 1 ms",
				LOWER_LIMIT, UPPER_LIMIT, this.options.concurrency(), this.options.pollInterval());
	}

	@Override
	public boolean retries() {
		return true;
	}

	@Override
	public void enqueueBatch(long enqueuedAtMicros, int count, boolean failOnce) {
		OneTimeTask<Long> task = failOnce ? this.failOnce : this.noop;
		List<TaskInstance<?>> instances = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			instances.add(task.instance(Long.toString(this.ids.incrementAndGet()), enqueuedAtMicros));
		}
		this.client.scheduleBatch(instances, Instant.now());
		this.inserted.addAndGet(count);
	}

	@Override
	public void startWorker(PeerProbe probe) {
		this.probe = probe;
		this.scheduler = Scheduler.create(this.dataSource, this.noop, this.failOnce)
			.tableName(this.table)
			.threads(this.options.concurrency())
			.pollUsingLockAndFetch(LOWER_LIMIT, UPPER_LIMIT)
			.pollingInterval(this.options.pollInterval())
			.enableImmediateExecution()
			.schedulerName(new SchedulerName.Fixed("bench"))
			.failureLogging(LogLevel.OFF, false)
			.shutdownMaxWait(Duration.ofSeconds(10))
			.build();
		this.scheduler.start();
	}

	@Override
	public long finished() throws SQLException {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + this.table)) {
			rows.next();
			return this.inserted.get() - rows.getLong(1);
		}
	}

	private void started(@Nullable Long enqueuedAtMicros) {
		PeerProbe probe = this.probe;
		if (probe != null && enqueuedAtMicros != null) {
			probe.started(enqueuedAtMicros);
		}
	}

	/** The table of db-scheduler's PostgreSQL schema script, under the run's prefix. */
	private void createTable() throws SQLException {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + this.table + " (task_name text NOT NULL, task_instance text NOT NULL,"
					+ " task_data bytea, execution_time timestamptz NOT NULL, picked boolean NOT NULL,"
					+ " picked_by text, last_success timestamptz, last_failure timestamptz,"
					+ " consecutive_failures int, last_heartbeat timestamptz, version bigint NOT NULL,"
					+ " priority smallint, PRIMARY KEY (task_name, task_instance))");
			statement.execute("CREATE INDEX " + this.table + "_execution_time_idx ON " + this.table + " (execution_time)");
			statement.execute("CREATE INDEX " + this.table + "_last_heartbeat_idx ON " + this.table + " (last_heartbeat)");
			statement.execute("CREATE INDEX " + this.table + "_priority_execution_time_idx ON " + this.table
					+ " (priority DESC, execution_time ASC)");
		}
	}

	@Override
	public void close() {
		Scheduler scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.stop();
		}
		this.dataSource.close();
	}

}
