package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.PGStatement;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.TestDatabases;
import dev.ojs.worker.WorkerStore;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link AbstractJdbcJobStoreTests} on PostgreSQL, plus the notification connection
 * validation and the plans of the outcome writes.
 */
class PostgresJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	/**
	 * Timestamps read back are the instants written, as text (a statement planned at every
	 * execution, as claims are: parsed by {@link PostgresTimestamps}) and in binary, whatever the
	 * session's time zone, historic offsets in seconds included; also by a reader of the rows in
	 * order ({@link SqlSupport#columns}), which parses a value repeating the previous row's once.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "UTC", "Asia/Kathmandu", "America/St_Johns", "Europe/Amsterdam" })
	void instantsAreReadBackAsWrittenFromTextAndBinaryInAnySessionTimeZone(String zone) throws SQLException {
		SqlSupport support = new SqlSupport(JdbcPlatform.POSTGRESQL, this.schema.settings(), this.schema.dataSource());
		Instant now = Instant.parse("2026-11-30T00:41:02.123456Z");
		List<Instant> instants = Arrays.asList(now, now, Instant.parse("2026-11-30T00:41:02.123457Z"), null, null,
				now, Instant.parse("2026-03-29T01:30:00.5Z"), Instant.parse("1900-01-01T00:00:00Z"), Instant.EPOCH,
				Timestamps.MAX, Timestamps.MAX);
		try (Connection con = this.schema.dataSource().getConnection(); Statement session = con.createStatement()) {
			session.execute("SET TIME ZONE '" + zone + "'");
			// 0: an unnamed statement, rows in text; -1: prepared on the server, rows in binary
			for (int threshold : new int[] { 0, -1 }) {
				// a text of its own each: pgjdbc keeps a statement prepared on the server for its text
				String sql = "SELECT unnest(?::timestamptz[]) AS " + ((threshold == 0) ? "as_text" : "as_binary");
				try (PreparedStatement ps = con.prepareStatement(sql)) {
					ps.unwrap(PGStatement.class).setPrepareThreshold(threshold);
					ps.setArray(1, con.createArrayOf("timestamptz",
							instants.stream().map(PostgresStatements::timestamptz).toArray()));
					List<Instant> read = new ArrayList<>();
					List<Instant> readInOrder = new ArrayList<>();
					SqlSupport.Columns rows = support.columns();
					try (ResultSet rs = ps.executeQuery()) {
						assertThat(rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1))
							.isEqualTo((threshold == 0) ? 0 : 1);
						while (rs.next()) {
							read.add(support.getInstant(rs, 1));
							readInOrder.add(rows.instant(rs, 1));
						}
					}
					assertThat(read).as(zone + ", prepareThreshold " + threshold).containsExactlyElementsOf(instants);
					assertThat(readInOrder).as(zone + ", prepareThreshold " + threshold + ", in order")
						.containsExactlyElementsOf(instants);
				}
			}
		}
	}

	/**
	 * An array parameter bound as a literal reads back as the values bound, whatever they hold
	 * (quotes, backslashes, commas, braces, the word NULL, blanks, JSON), nulls and the empty
	 * array included, also when read by a reader of the rows in order ({@link SqlSupport#columns}),
	 * which decodes a text repeating the previous row's once; cast to {@code uuid[]} it takes ids
	 * as such.
	 */
	@Test
	void arrayParametersReadBackAsBound() throws SQLException {
		List<Object[]> arrays = List.of(new Object[] { "a", "", " b ", "c,d", "{e}", "NULL", null, "say \"hi\"",
				"back\\slash\\", "\\\"", "{\"args\":[1,\"x\\\\y\"]}", "ünïcødé ✓" }, new Object[0],
				new Object[] { null }, new Object[] { "x", "x", "y", null, null, "y", "x", "ünï", "ünï", "üni" });
		try (Connection con = this.schema.dataSource().getConnection();
				PreparedStatement ps = con.prepareStatement("SELECT unnest(?::text[])")) {
			for (Object[] values : arrays) {
				PostgresStatements.setArray(ps, 1, values);
				List<String> read = new ArrayList<>();
				List<String> readInOrder = new ArrayList<>();
				SqlSupport.Columns columns = new SqlSupport(JdbcPlatform.POSTGRESQL, this.schema.settings(),
						this.schema.dataSource()).columns();
				ps.unwrap(PGStatement.class).setPrepareThreshold(0);
				try (ResultSet rs = ps.executeQuery()) {
					while (rs.next()) {
						read.add(rs.getString(1));
						readInOrder.add(columns.text(rs, 1));
					}
				}
				assertThat(read).containsExactly(Arrays.copyOf(values, values.length, String[].class));
				assertThat(readInOrder).containsExactlyElementsOf(read);
			}
		}
		String id = "01a22c69-6772-715b-ba43-0924a0ac4fb1";
		try (Connection con = this.schema.dataSource().getConnection();
				PreparedStatement ps = con.prepareStatement("SELECT pg_typeof(u)::text, u::text FROM unnest(?::uuid[]) AS u")) {
			PostgresStatements.setTexts(ps, 1, List.of(id, id.toUpperCase(java.util.Locale.ROOT)), (value) -> value);
			try (ResultSet rs = ps.executeQuery()) {
				assertThat(rs.next()).isTrue();
				assertThat(rs.getString(1)).isEqualTo("uuid");
				assertThat(rs.getString(2)).isEqualTo(id);
				assertThat(rs.next()).isTrue();
				assertThat(rs.getString(2)).isEqualTo(id);
			}
		}
	}

	/**
	 * A claim that commits on its own does not wait for its WAL flush, for its transaction
	 * alone: the connection's next transactions wait again. In a transaction of the store's
	 * (a limit's, a completion's), or with durable claims, it waits.
	 */
	@Test
	void aClaimOnItsOwnSkipsTheFlushForItsOwnTransactionOnly() throws SQLException {
		this.store.insert(List.of(job("email.send").build()));
		PostgresClaimSql dialect = (PostgresClaimSql) this.store.dialect().claims();
		try (Connection con = this.schema.dataSource().getConnection()) {
			String before = synchronousCommit(con);
			con.setAutoCommit(false);
			try (PreparedStatement ps = con.prepareStatement(dialect.claimSql(EMAIL, false, false, true))) {
				dialect.bindClaim(con, ps, "node-a", "default", EMAIL, 10, this.store.now(), null, List.of());
				try (ResultSet rs = ps.executeQuery()) {
					assertThat(rs.next()).as("claimed").isTrue();
				}
			}
			assertThat(synchronousCommit(con)).isEqualTo("off");
			con.commit();
			assertThat(synchronousCommit(con)).isEqualTo(before).isNotEqualTo("off");
			con.commit();
			con.setAutoCommit(true);
		}
	}

	/**
	 * Through the store: a poller's claim, auto-committed, carries the setting; a refill claimed
	 * in a completion's transaction does not, and that transaction commits with
	 * {@code synchronous_commit} as the server has it, as outcomes must.
	 */
	@Test
	void aCompletionThatClaimsARefillStillWaitsForItsFlush() throws Exception {
		List<String> claims = new CopyOnWriteArrayList<>();
		List<String> commits = new CopyOnWriteArrayList<>();
		DataSource dataSource = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && sql.contains("SET state = 'active', attempt = j.attempt + 1")) {
				claims.add((call.target().getAutoCommit() ? "own commit" : "in a transaction")
						+ (sql.contains("synchronous_commit") ? ", flush-free" : ", waits"));
			}
			if (call.is("commit", 0)) {
				commits.add(synchronousCommit(call.target()));
			}
			return call.proceed();
		});
		JdbcJobStore store = new JdbcJobStore(dataSource, this.schema.settings(), this.clock);
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		String before;
		try (Connection con = this.schema.dataSource().getConnection()) {
			before = synchronousCommit(con);
		}
		List<Job> first = store.claim("node-a", "default", EMAIL, 1);
		assertThat(first).hasSize(1);
		WorkerStore.Completed completed = store.complete(first, Map.of(), false,
				List.of(new WorkerStore.Refill("node-a", "default", EMAIL, 1)));
		assertThat(completed.written()).containsExactly(first.get(0).id());
		assertThat(completed.claimed()).singleElement().satisfies((refilled) -> assertThat(refilled).hasSize(1));
		assertThat(claims).containsExactly("own commit, flush-free", "in a transaction, waits");
		assertThat(commits).isNotEmpty().allSatisfy((setting) -> assertThat(setting).isEqualTo(before).isNotEqualTo("off"));
		JdbcJobStore durable = new JdbcJobStore(this.schema.dataSource(),
				new JdbcStoreSettings(this.schema.settings().tablePrefix(), true));
		assertThat(((PostgresClaimSql) durable.dialect().claims()).flushFree()).as("durable claims").isFalse();
	}

	/**
	 * An insert's transaction sends no {@code NOTIFY} (whose lock it would hold until its
	 * commit is flushed): the notification follows its commit, from a connection of its own.
	 */
	@Test
	void anInsertNotifiesOtherProcessesAfterItsCommitFromItsOwnConnection() throws Exception {
		List<String> notifies = new CopyOnWriteArrayList<>();
		DataSource dataSource = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && sql.contains("pg_notify")) {
				notifies.add((call.target().getAutoCommit() ? "own commit" : "in a transaction") + " on "
						+ Thread.currentThread().getName());
			}
			return call.proceed();
		});
		JdbcJobStore store = new JdbcJobStore(dataSource, this.schema.settings(), this.clock);
		BlockingQueue<String> heard = new LinkedBlockingQueue<>();
		try (PostgresNotifications listener = PostgresNotifications.start(this.schema.dataSource(),
				this.schema.tableName(), (queue) -> heard.add(String.valueOf(queue)), 200)) {
			assertThat(heard.poll(10, TimeUnit.SECONDS)).as("connected").isEqualTo("null");
			new TransactionTemplate(new DataSourceTransactionManager(dataSource)).executeWithoutResult((status) -> {
				store.insert(List.of(job("email.send").queue("mail").build(), job("email.send").queue("sms").build()));
				assertThat(notifies).as("before the commit").isEmpty();
			});
			assertThat(List.of(heard.poll(10, TimeUnit.SECONDS), heard.poll(10, TimeUnit.SECONDS)))
				.containsExactlyInAnyOrder("mail", "sms");
			assertThat(notifies).containsExactly("own commit on ojs-notify");
		}
	}

	private static String synchronousCommit(Connection con) throws SQLException {
		try (Statement statement = con.createStatement(); ResultSet rs = statement.executeQuery("SHOW synchronous_commit")) {
			rs.next();
			return rs.getString(1);
		}
	}

	@Test
	void listenerReconnectsWhenItsConnectionIsNoLongerValid() throws Exception {
		AtomicBoolean dropped = new AtomicBoolean();
		// a connection the network dropped silently: no error, but isValid() says false
		DataSource dataSource = new InterceptingDataSource(this.schema.dataSource(),
				(call) -> (call.is("isValid", 1) && dropped.get()) ? Boolean.FALSE : call.proceed());
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		try (PostgresNotifications listener = PostgresNotifications.start(dataSource, this.schema.tableName(),
				(queue) -> events.add(String.valueOf(queue)), 200)) {
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("connected").isEqualTo("null");
			assertThat(events.poll(1, TimeUnit.SECONDS)).as("valid: stays connected").isNull();
			dropped.set(true);
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("reconnected").isEqualTo("null");
		}
	}

	/**
	 * A new job table is vacuumed eagerly (1% dead rows, unthrottled); a table's own settings
	 * survive the schema script's next run.
	 */
	@Test
	void aNewJobTableIsVacuumedEagerlyAndKeepsItsOwnSettings() {
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String table = this.schema.tableName();
		String options = "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = ?::regclass";
		assertThat(jdbc.queryForObject(options, String.class, table))
			.isEqualTo("autovacuum_vacuum_scale_factor=0.01,autovacuum_vacuum_cost_delay=0");
		jdbc.execute("ALTER TABLE " + table + " SET (autovacuum_vacuum_scale_factor = 0.05)");
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		assertThat(jdbc.queryForObject(options, String.class, table))
			.isEqualTo("autovacuum_vacuum_cost_delay=0,autovacuum_vacuum_scale_factor=0.05");
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
		assertThat(new JdbcJobStore(this.schema.dataSource(), new JdbcStoreSettings("no_such_")).vacuumWarning())
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
		assertOutcomeWritesByPrimaryKeyAmong30000ActiveJobs(store);
	}

	/**
	 * The outcome writes on 30,000 active jobs, with statistics taken while no job was active (a
	 * drained queue, or a backlog before its workers started): planned from how often those saw
	 * {@code active}, a batch of 1,000 read the whole table once per row (5.2 s).
	 */
	@Test
	void outcomeWritesStayByPrimaryKeyWithStatisticsTakenWhileNoJobWasActive() {
		JdbcJobStore store = this.schema.newStore();
		store.insert(IntStream.range(0, 20_000).mapToObj((n) -> job("email.send").build()).toList());
		new JdbcTemplate(this.schema.dataSource()).execute("ANALYZE " + this.schema.tableName());
		this.schema.clear();
		assertOutcomeWritesByPrimaryKeyAmong30000ActiveJobs(store);
	}

	private void assertOutcomeWritesByPrimaryKeyAmong30000ActiveJobs(JdbcJobStore store) {
		Map<String, Duration> types = Map.of("email.send", Duration.ofMinutes(5));
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
		DataSource explaining = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && call.args().length == 1 && sql.contains("unnest(") && !sql.startsWith("INSERT")
					&& !sql.contains("pg_notify")) {
				plans.add(sql);
				return call.proceed("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql);
			}
			return call.proceed();
		});
		JdbcJobStore store = this.schema.newStore();
		JdbcJobStore explainingStore = new JdbcJobStore(explaining, this.schema.settings());
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

	/**
	 * A completion of plain jobs counts them in their queues' minute rows by the statement
	 * that completes (or deletes) them: its transaction sends that statement and no other
	 * write, and the statistics count each job once.
	 */
	@Test
	void aCompletionOfPlainJobsCountsThemByItsOwnStatement() {
		new JdbcTemplate(this.schema.dataSource()).update("DELETE FROM " + this.schema.settings().statsTableName());
		List<String> statements = new ArrayList<>();
		JdbcJobStore recording = new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			if (call.sql() != null) {
				statements.add(call.sql());
			}
			return call.proceed();
		}), this.schema.settings());
		Map<String, Duration> types = Map.of("email.send", Duration.ofMinutes(5));
		for (String queue : List.of("a", "b")) {
			this.store.insert(IntStream.range(0, 3).mapToObj((n) -> job("email.send").queue(queue).build()).toList());
		}
		List<Job> active = new ArrayList<>(this.store.claim("node-a", "a", types, 10));
		active.addAll(this.store.claim("node-a", "b", types, 10));
		Instant minute = this.store.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
		assertThat(recording.complete(List.of(active.get(0), active.get(1), active.get(3)), false)).hasSize(3);
		assertThat(statements).as("statements of the completion").singleElement()
			.satisfies((sql) -> assertThat(sql).contains("UPDATE").contains(this.schema.settings().statsTableName()));
		statements.clear();
		assertThat(recording.complete(List.of(active.get(2), active.get(4)), true)).hasSize(2);
		assertThat(statements).as("statements of the completion that deletes").singleElement()
			.satisfies((sql) -> assertThat(sql).contains("DELETE").contains(this.schema.settings().statsTableName()));
		assertThat(recording.complete(List.of(active.get(2)), false)).as("written before").isEmpty();
		assertThat(new JdbcTemplate(this.schema.dataSource()).queryForList("SELECT queue, minute_at = ?, CAST(SUM(completed) AS BIGINT)"
				+ " FROM " + this.schema.settings().statsTableName() + " GROUP BY queue, minute_at ORDER BY queue",
				java.sql.Timestamp.from(minute)))
			.extracting((row) -> List.copyOf(row.values()))
			.containsExactly(List.of("a", true, 3L), List.of("b", true, 2L));
	}

	/**
	 * Claims are planned for their parameters every time, like the outcome writes: on one
	 * connection, pgjdbc would otherwise make the claim a named server-side statement after 5
	 * executions, and PostgreSQL could then cache a generic plan made while the table was empty
	 * (one that joined the claimed ids to a scan of the whole table). No claim statement is ever
	 * server-prepared on that connection, however often it runs.
	 */
	@Test
	void claimsAreNeverServerPrepared() throws Exception {
		try (java.sql.Connection connection = this.schema.dataSource().getConnection()) {
			DataSource one = new org.springframework.jdbc.datasource.SingleConnectionDataSource(connection, true);
			JdbcJobStore store = new JdbcJobStore(one, this.schema.settings());
			for (int i = 0; i < 12; i++) {
				store.claim("node-a", "default", EMAIL, 10);
			}
			store.insert(IntStream.range(0, 500).mapToObj((n) -> job("email.send").build()).toList());
			for (int i = 0; i < 12; i++) {
				assertThat(store.claim("node-a", "default", EMAIL, 10)).hasSize(10);
				this.clock.advance(ClaimCursors.RESCAN_INTERVAL);
			}
			List<String> prepared = new JdbcTemplate(one)
				.queryForList("SELECT statement FROM pg_prepared_statements WHERE statement LIKE ?", String.class,
						"%SET state = 'active', attempt = j.attempt + 1%");
			assertThat(prepared).isEmpty();
		}
	}

	/**
	 * Under a backlog (every claim fills its slots) a claim resumes where the previous one
	 * ended: a job inserted ahead of that point (here a higher priority) waits for the next
	 * claim from the front, which runs once {@link ClaimCursors#RESCAN_INTERVAL} has passed.
	 * Every job is claimed once, in claim order at each claim from the front.
	 */
	@Test
	void claimsOfABacklogResumeAndStartFromTheFrontEveryInterval() {
		List<String> backlog = sorted(this.store.insert(IntStream.range(0, 30).mapToObj((n) -> job("email.send").build())
			.toList()));
		assertThat(ids(claim(10))).containsExactlyElementsOf(backlog.subList(0, 10));
		String urgent = insertOne(job("email.send").priority(5));
		assertThat(ids(claim(10))).as("resumed after the previous claim").containsExactlyElementsOf(backlog.subList(10, 20));
		this.clock.advance(ClaimCursors.RESCAN_INTERVAL);
		List<String> expected = new ArrayList<>(List.of(urgent));
		expected.addAll(backlog.subList(20, 29));
		assertThat(ids(claim(10))).as("from the front").containsExactlyElementsOf(expected);
		assertThat(ids(claim(10))).containsExactly(backlog.get(29));
		assertThat(claim(10)).isEmpty();
	}

	/**
	 * A resumed claim that finds fewer jobs than free slots (the rest of its priority is
	 * taken) fills them from the front in the same call: a released job that sorts before
	 * the resume point, then the next priority.
	 */
	@Test
	void aShortResumedClaimFillsItsSlotsFromTheFront() {
		List<String> normal = sorted(this.store.insert(IntStream.range(0, 15).mapToObj((n) -> job("email.send").build())
			.toList()));
		List<String> low = sorted(this.store.insert(IntStream.range(0, 5)
			.mapToObj((n) -> job("email.send").priority(-1).build())
			.toList()));
		List<Job> first = claim(10);
		assertThat(ids(first)).containsExactlyElementsOf(normal.subList(0, 10));
		assertThat(this.store.release(List.of(first.get(0)))).containsExactly(normal.get(0));
		List<String> expected = new ArrayList<>(List.of(normal.get(0)));
		expected.addAll(normal.subList(10, 15));
		expected.addAll(low.subList(0, 4));
		assertThat(ids(claim(10))).containsExactlyElementsOf(expected);
		assertThat(ids(claim(10))).containsExactly(low.get(4));
	}

	/**
	 * A poller claims each group of types with its own limit separately, on one node and
	 * queue: each group resumes after its own last job, never after another group's.
	 */
	@Test
	void eachGroupOfTypesResumesAfterItsOwnLastJob() {
		Map<String, Duration> reports = Map.of("report.build", Duration.ofSeconds(30));
		List<String> olderEmails = sorted(this.store.insert(IntStream.range(0, 10)
			.mapToObj((n) -> job("email.send").build())
			.toList()));
		this.clock.advance(Duration.ofMillis(1));
		List<String> built = sorted(this.store.insert(IntStream.range(0, 20).mapToObj((n) -> job("report.build").build())
			.toList()));
		this.clock.advance(Duration.ofMillis(1));
		List<String> newerEmails = sorted(this.store.insert(IntStream.range(0, 10)
			.mapToObj((n) -> job("email.send").build())
			.toList()));
		assertThat(ids(this.store.claim(NODE, "default", reports, 5))).containsExactlyElementsOf(built.subList(0, 5));
		assertThat(ids(claim(5))).as("the older emails, not those after the reports' resume point")
			.containsExactlyElementsOf(olderEmails.subList(0, 5));
		assertThat(ids(this.store.claim(NODE, "default", reports, 5))).containsExactlyElementsOf(built.subList(5, 10));
		assertThat(ids(claim(5))).containsExactlyElementsOf(olderEmails.subList(5, 10));
		assertThat(ids(claim(5))).containsExactlyElementsOf(newerEmails.subList(0, 5));
	}

	/**
	 * When the claim from the front that fills a short resumed claim fails, the jobs the
	 * resumed claim took (committed, so this node's) are still handed out, and the next claim
	 * starts from the front.
	 */
	@Test
	void aFailedFrontClaimStillHandsOutTheResumedClaimsJobs() {
		AtomicBoolean failFrontClaims = new AtomicBoolean();
		DataSource failing = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (failFrontClaims.get() && sql != null && sql.startsWith("WITH RECURSIVE prio")) {
				throw new SQLException("connection reset", "08006");
			}
			return call.proceed();
		});
		JdbcJobStore store = new JdbcJobStore(failing, this.schema.settings(), this.clock);
		List<String> all = sorted(store.insert(IntStream.range(0, 15).mapToObj((n) -> job("email.send").build()).toList()));
		assertThat(ids(store.claim(NODE, "default", EMAIL, 10))).containsExactlyElementsOf(all.subList(0, 10));
		failFrontClaims.set(true);
		assertThat(ids(store.claim(NODE, "default", EMAIL, 10))).as("resumed, then the front failed")
			.containsExactlyElementsOf(all.subList(10, 15));
		assertThatExceptionOfType(DataAccessException.class).as("from the front now, which fails")
			.isThrownBy(() -> store.claim(NODE, "default", EMAIL, 10));
		failFrontClaims.set(false);
		assertThat(store.claim(NODE, "default", EMAIL, 10)).isEmpty();
		assertThat(this.store.find(all.get(14)).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
	}

	/**
	 * A resumed claim reads the index range after its starting point instead of walking the
	 * dead entries every earlier claim left at the front of the queue (autovacuum is off on
	 * the CI server): after 5,000 claimed jobs, its plan bounds the claim index scan by the
	 * starting key and reads a fraction of the pages a claim from the front reads.
	 */
	@Test
	void aResumedClaimSkipsTheDeadEntriesAtTheFront() {
		// the dead entries must stay put, also on a server that runs autovacuum
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.execute("ALTER TABLE " + this.schema.tableName() + " SET (autovacuum_enabled = false)");
		try {
			for (int i = 0; i < 6; i++) {
				this.store.insert(IntStream.range(0, 1000).mapToObj((n) -> job("email.send").build()).toList());
			}
			List<Job> claimed = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				claimed.addAll(this.store.claim("node-b", "default", EMAIL, 100));
				this.clock.advance(ClaimCursors.RESCAN_INTERVAL);
			}
			assertThat(claimed).hasSize(5000);
			Job last = claimed.get(claimed.size() - 1);
			PostgresClaimSql dialect = (PostgresClaimSql) this.store.dialect().claims();
			String resumed = explainClaim(dialect,
					new ClaimCursors.Cursor(last.priority(), last.scheduledAt(), last.id(), this.store.now()));
			String front = explainClaim(dialect, null);
			assertThat(resumed).as(resumed).contains("Index Scan using " + this.schema.tableName() + "_claim_idx")
				.containsPattern("Index Cond: .*ROW\\(scheduled_at, id\\) > ROW\\(");
			assertThat(claimIndexHits(resumed)).as("pages read, resumed:%n%s%nfrom the front:%n%s", resumed, front)
				.isLessThan(claimIndexHits(front) / 4);
			// from the front, the dead entries are walked once, to find the first claimable entry,
			// and the due range starts there
			assertThat(sharedHits(front)).as(front).isLessThan(claimIndexHits(front) / 4);
		}
		finally {
			jdbc.execute("ALTER TABLE " + this.schema.tableName() + " RESET (autovacuum_enabled)");
		}
	}

	/**
	 * Jobs scheduled ahead cost a claim from the front nothing (BENCHMARKS.md, bottleneck 8):
	 * it descends the claim index once per priority of the queue and reads only each priority's
	 * due entries, with or without statistics, where one range over the queue read every
	 * future-dated entry (5,000 here; a claim with 200,000 took 63 ms, now about 1 ms).
	 */
	@Test
	void aFrontClaimReadsNoJobScheduledAhead() {
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		// the dead entries earlier tests left in the index (the CI server never vacuums) are another matter
		jdbc.execute("VACUUM " + this.schema.tableName());
		Instant later = this.clock.instant().plus(Duration.ofDays(1));
		for (int priority : new int[] { 10, 0, -5 }) {
			this.store.insert(IntStream.range(0, 1700)
				.mapToObj((n) -> job("email.send").priority(priority).runAt(later.plusMillis(n)).build())
				.toList());
		}
		List<String> due = new ArrayList<>();
		for (int priority : new int[] { -5, 0, 7 }) {
			due.add(insertOne(job("email.send").priority(priority)));
		}
		PostgresClaimSql dialect = (PostgresClaimSql) this.store.dialect().claims();
		for (boolean analyzed : new boolean[] { false, true }) {
			if (analyzed) {
				jdbc.execute("ANALYZE " + this.schema.tableName());
			}
			String plan = explainClaim(dialect, null);
			// the due selection: the plan's CTEs, before the update's join back to the rows
			String selection = plan.substring(0, plan.indexOf("\n  ->  ", plan.indexOf("CTE due")));
			assertThat(selection).as(plan).contains("_claim_idx").doesNotContain("Seq Scan");
			assertThat(totalSharedHits(selection.substring(selection.indexOf("CTE due"))))
				.as("pages read by the due selection, analyzed=%s:%n%s", analyzed, plan).isLessThan(60);
			// the explained claim took the due jobs: hand them back for the next round
			jdbc.update("UPDATE " + this.schema.tableName() + " SET state = 'available', attempt = 0"
					+ " WHERE state = 'active'");
		}
		assertThat(ids(claim(10))).as("due jobs only, higher priority first")
			.containsExactly(due.get(2), due.get(1), due.get(0));
	}

	/**
	 * Whether any job has a sequence key is read once a second on every node: from the partial
	 * sequence index, also before the table has statistics. Without them, {@code WHERE
	 * sequence_key IS NOT NULL LIMIT 1} was planned as a scan of every job.
	 */
	@Test
	void theReadOfWhetherAJobHasASequenceKeyUsesTheSequenceIndexWithoutStatistics() {
		this.store.insert(IntStream.range(0, 20_000).mapToObj((n) -> job("email.send").build()).toList());
		String plan = String.join("\n", new JdbcTemplate(this.schema.dataSource()).queryForList(
				"EXPLAIN (COSTS OFF) " + SequenceKeys.sql(this.schema.tableName()), String.class));
		assertThat(plan).as(plan).contains(this.schema.tableName() + "_sequence_idx").doesNotContain("Seq Scan");
	}

	/**
	 * Expiry costs jobs without it nothing: the expirer reads the partial index of waiting jobs
	 * with an expires_at, and the claim keeps its plan, the expiry a filter on the rows it reads.
	 */
	@Test
	void expiryReadsItsPartialIndexAndLeavesTheClaimPlan() {
		this.store.insert(IntStream.range(0, 2000).mapToObj((n) -> job("email.send").build()).toList());
		this.store.insert(IntStream.range(0, 5)
			.mapToObj((n) -> job("email.send").expiresAt(this.clock.instant().plusSeconds(1)).build())
			.toList());
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.execute("ANALYZE " + this.schema.tableName());
		PostgresClaimSql dialect = (PostgresClaimSql) this.store.dialect().claims();
		OutcomeSql outcomes = this.store.dialect().outcomes();
		String expire = String.join("\n", jdbc.query((con) -> {
			java.sql.PreparedStatement ps = con.prepareStatement("EXPLAIN (COSTS OFF) " + outcomes.expiredSelect());
			outcomes.setInstant(ps, 1, this.clock.instant().plusSeconds(2));
			ps.setInt(2, 100);
			return ps;
		}, (rs, rowNum) -> rs.getString(1)));
		assertThat(expire).as(expire).containsPattern("Index (Only )?Scan using " + this.schema.tableName() + "_expires_idx");
		String claim = explainClaim(dialect, null);
		assertThat(claim).as(claim).contains("Index Scan using " + this.schema.tableName() + "_claim_idx")
			.containsPattern("Filter: .*expires_at");
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.store.expire(100)).hasSize(5);
	}

	private String explainClaim(PostgresClaimSql dialect, ClaimCursors.Cursor resumeAfter) {
		Map<String, Duration> types = EMAIL;
		String sql = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) " + dialect.claimSql(types, resumeAfter != null, false, true);
		return String.join("\n", new JdbcTemplate(this.schema.dataSource()).query((con) -> {
			java.sql.PreparedStatement ps = con.prepareStatement(sql);
			dialect.bindClaim(con, ps, "node-explain", "default", types, 50, this.store.now(), resumeAfter, List.of());
			return ps;
		}, (rs, rowNum) -> rs.getString(1)));
	}

	/** Shared buffers hit by the whole statement (its top node's {@code Buffers: shared hit=N}). */
	private static int totalSharedHits(String plan) {
		java.util.regex.Matcher buffers = java.util.regex.Pattern.compile("Buffers: shared hit=(\\d+)").matcher(plan);
		assertThat(buffers.find()).as("buffers in%n%s", plan).isTrue();
		return Integer.parseInt(buffers.group(1));
	}

	/** Pages read by every scan of the claim index in {@code plan}. */
	private static int claimIndexHits(String plan) {
		java.util.regex.Matcher scan = java.util.regex.Pattern
			.compile("Index (?:Only )?Scan using \\w+_claim_idx[^\\n]*\\n(?:(?!\\s*->)[^\\n]*\\n)*?\\s*Buffers: shared hit=(\\d+)")
			.matcher(plan);
		int hits = 0;
		while (scan.find()) {
			hits += Integer.parseInt(scan.group(1));
		}
		assertThat(hits).as("claim index scans with buffers in%n%s", plan).isPositive();
		return hits;
	}

	/** Pages read by the first plain index scan of the claim index (a claim's due range). */
	private static int sharedHits(String plan) {
		java.util.regex.Matcher scan = java.util.regex.Pattern
			.compile("Index Scan using \\w+_claim_idx[\\s\\S]*?Buffers: shared hit=(\\d+)")
			.matcher(plan);
		assertThat(scan.find()).as("claim index scan with buffers in%n%s", plan).isTrue();
		return Integer.parseInt(scan.group(1));
	}

	private static List<String> sorted(List<String> ids) {
		return ids.stream().sorted().toList();
	}

	private static List<String> ids(List<Job> jobs) {
		return jobs.stream().map(Job::id).toList();
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
