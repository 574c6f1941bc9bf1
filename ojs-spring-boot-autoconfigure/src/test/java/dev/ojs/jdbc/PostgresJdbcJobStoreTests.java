package dev.ojs.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractJdbcJobStoreTests} on PostgreSQL, plus the insert listener's connection
 * validation and the plans of the outcome writes.
 */
class PostgresJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	@Test
	void listenerReconnectsWhenItsConnectionIsNoLongerValid() throws Exception {
		AtomicBoolean dropped = new AtomicBoolean();
		// a connection the network dropped silently: no error, but isValid() says false
		DelegatingDataSource dataSource = new DelegatingDataSource(this.schema.dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				Connection target = super.getConnection();
				return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
						new Class<?>[] { Connection.class }, (proxy, method, args) -> {
							if (method.getName().equals("isValid") && dropped.get()) {
								return false;
							}
							try {
								return method.invoke(target, args);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}

		};
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		try (PostgresInsertListener listener = PostgresInsertListener.start(dataSource, this.schema.tableName(),
				(queue) -> events.add(String.valueOf(queue)), 200)) {
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("connected").isEqualTo("null");
			assertThat(events.poll(1, TimeUnit.SECONDS)).as("valid: stays connected").isNull();
			dropped.set(true);
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("reconnected").isEqualTo("null");
		}
	}

	/**
	 * The worker warns at start when autovacuum does not process the job table: on the
	 * server ({@code autovacuum = off}, as on the CI machine) or for the table alone.
	 */
	@Test
	void vacuumWarningNamesWhatKeepsAutovacuumFromTheTable() {
		JdbcJobStore store = this.schema.newStore();
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String table = this.schema.tableName();
		boolean serverOff = "off".equals(jdbc.queryForObject("SHOW autovacuum", String.class))
				|| "off".equals(jdbc.queryForObject("SHOW track_counts", String.class));
		if (serverOff) {
			assertThat(store.vacuumWarning()).hasValueSatisfying((warning) -> assertThat(warning).contains(table)
				.contains("the server runs with")
				.doesNotContain("autovacuum_enabled"));
		}
		else {
			assertThat(store.vacuumWarning()).isEmpty();
		}
		jdbc.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
		try {
			assertThat(store.vacuumWarning()).hasValueSatisfying((warning) -> assertThat(warning)
				.contains("Autovacuum does not process the OJS job table " + table)
				.contains("the table is set autovacuum_enabled = false")
				.contains("VACUUM " + table));
		}
		finally {
			jdbc.execute("ALTER TABLE " + table + " RESET (autovacuum_enabled)");
		}
		assertThat(new JdbcJobStore(this.schema.dataSource(), new JdbcStoreSettings("no_such_", 20)).vacuumWarning())
			.as("no table yet").isEmpty();
	}

	/**
	 * The outcome writes first run while the table is nearly empty (a new or drained queue),
	 * more often than pgjdbc's prepareThreshold (5), then on 30,000 active jobs: a plan
	 * cached from the first executions scanned every active job for each row of the batch
	 * (a 1,000-row batch took over 4 s); planned by primary key they take milliseconds.
	 */
	@Test
	void outcomeWritesStayByPrimaryKeyAfterRunningOnANearlyEmptyTable() {
		JdbcJobStore store = this.schema.newStore();
		Map<String, Duration> types = Map.of("email.send", Duration.ofMinutes(5));
		for (int i = 0; i < 8; i++) {
			store.insert(List.of(job("email.send").build(), job("email.send").build(), job("email.send").build(),
					job("email.send").build(), job("email.send").build()));
			List<Job> claimed = store.claim("node-a", "default", types, 5);
			assertThat(claimed).hasSize(5);
			Instant now = store.now();
			assertThat(store.heartbeat("node-a", claimed.stream().map(Job::id).toList(), now.plusSeconds(60)))
				.isEqualTo(5);
			assertThat(store.complete(List.of(claimed.get(0)), false)).hasSize(1);
			assertThat(store.complete(List.of(claimed.get(1)), true)).hasSize(1);
			assertThat(store.fail(List.of(failure(claimed.get(2), now)))).hasSize(1);
			assertThat(store.release(List.of(claimed.get(3)))).hasSize(1);
			assertThat(store.complete(List.of(claimed.get(4)), false)).hasSize(1);
		}
		List<Job> active = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			store.insert(java.util.stream.IntStream.range(0, 1000).mapToObj((n) -> job("email.send").build()).toList());
			active.addAll(store.claim("node-a", "default", types, 1000));
		}
		assertThat(active).hasSizeGreaterThanOrEqualTo(30_000);
		Instant now = store.now();
		assertFast("heartbeat", () -> assertThat(store.heartbeat("node-a",
				active.subList(0, 1000).stream().map(Job::id).toList(), now.plusSeconds(60))).isEqualTo(1000));
		assertFast("complete", () -> assertThat(store.complete(active.subList(1000, 2000), false)).hasSize(1000));
		assertFast("complete (delete)", () -> assertThat(store.complete(active.subList(2000, 3000), true)).hasSize(1000));
		assertFast("fail", () -> assertThat(store.fail(active.subList(3000, 4000).stream()
			.map((job) -> failure(job, now)).toList())).hasSize(1000));
		assertFast("release", () -> assertThat(store.release(active.subList(4000, 5000))).hasSize(1000));
	}

	/**
	 * An outcome write reads its batch's {@code unnest} once: joined to the primary key row
	 * by row, never re-read for every row found. A plan that looked the batch up by
	 * {@code id = ANY(ids)} and then filtered the {@code unnest} against each row was
	 * O(batch&sup2;): 8.7 ms instead of 2.2 ms for 100 completions, the largest cost of the
	 * drain benchmark. The plans are read with {@code EXPLAIN ANALYZE} of the statements the
	 * store sends, on a table of 20,000 jobs with batches of the completer's usual size.
	 */
	@Test
	void outcomeWritesReadTheirBatchOnce() {
		List<String> plans = new ArrayList<>();
		DelegatingDataSource explaining = new DelegatingDataSource(this.schema.dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				Connection target = super.getConnection();
				return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
						new Class<?>[] { Connection.class }, (proxy, method, args) -> {
							if (method.getName().equals("prepareStatement") && args.length == 1
									&& ((String) args[0]).contains("unnest(")
									&& !((String) args[0]).startsWith("WITH")) {
								plans.add((String) args[0]);
								args = new Object[] { "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + args[0] };
							}
							try {
								return method.invoke(target, args);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}

		};
		JdbcJobStore store = this.schema.newStore();
		JdbcJobStore explainingStore = new JdbcJobStore(explaining, this.schema.settings(20));
		Map<String, Duration> types = Map.of("email.send", Duration.ofMinutes(5));
		for (int i = 0; i < 20; i++) {
			store.insert(java.util.stream.IntStream.range(0, 1000).mapToObj((n) -> job("email.send").build()).toList());
		}
		List<Job> active = store.claim("node-a", "default", types, 400);
		Instant now = store.now();
		Map<String, java.util.Set<String>> planByWrite = new java.util.LinkedHashMap<>();
		planByWrite.put("complete", explainingStore.complete(active.subList(0, 100), false));
		planByWrite.put("complete (delete)", explainingStore.complete(active.subList(100, 200), true));
		planByWrite.put("fail", explainingStore.fail(active.subList(200, 300).stream().map((job) -> failure(job, now)).toList()));
		planByWrite.put("release", explainingStore.release(active.subList(300, 400)));
		assertThat(plans).hasSize(4);
		planByWrite.forEach((write, plan) -> {
			String text = String.join("\n", plan);
			assertThat(text).as(write + ": plan was\n" + text).contains("Function Scan").doesNotContain("Join Filter");
			assertThat(plan.stream().filter((line) -> line.contains("Function Scan")))
				.as(write + ": the batch is read once; plan was\n" + text)
				.allSatisfy((line) -> assertThat(line).contains("loops=1)"));
		});
	}

	private static AttemptFailure failure(Job job, Instant now) {
		return new AttemptFailure(job, JobState.RETRYABLE, now.plusSeconds(60),
				List.of(new ErrorEntry(job.attempt(), "external.timeout", "timed out", ErrorCode.RETRY, now, Map.of())),
				false, now);
	}

	private static void assertFast(String what, Runnable write) {
		long started = System.nanoTime();
		write.run();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as(what + " of 1,000 jobs among 30,000 active")
			.isLessThan(Duration.ofSeconds(2));
	}

}
