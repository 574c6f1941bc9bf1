package dev.ojs.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.jdbc.JdbcRecurringJobStore;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.MutableClock;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.recurring.RecurringJobFixtures.JOBS;
import static dev.ojs.recurring.RecurringJobFixtures.definition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The evaluator and registration on a database, driven by a controllable clock
 * (ojs-cron.md §5–8). Subclasses choose the database.
 */
abstract class AbstractRecurringJobEvaluatorTests extends DatabaseTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:30Z");

	private final MutableClock clock = new MutableClock(START);

	private final List<Object> events = new CopyOnWriteArrayList<>();

	private final RecurringJobListener listener = new RecurringJobListener() {

		@Override
		public void triggered(Triggered event) {
			AbstractRecurringJobEvaluatorTests.this.events.add(event);
		}

		@Override
		public void skipped(Skipped event) {
			AbstractRecurringJobEvaluatorTests.this.events.add(event);
		}

	};

	private JdbcJobStore jobs;

	private JdbcRecurringJobStore store;

	private RecurringJobs recurringJobs;

	private RecurringJobEvaluator evaluator;

	private JdbcTemplate jdbc;

	@BeforeEach
	void setUp() {
		this.clock.set(START);
		this.events.clear();
		this.jobs = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		this.store = new JdbcRecurringJobStore(this.jobs);
		this.recurringJobs = new RecurringJobs(this.store, JOBS, "app");
		this.evaluator = evaluator("node-a");
		this.jdbc = new JdbcTemplate(this.schema.dataSource());
	}

	@AfterEach
	void cleanUp() {
		this.evaluator.stop(Duration.ofSeconds(1));
		this.jdbc.update("DELETE FROM " + this.schema.tablePrefix() + "schedules");
		this.jdbc.update("DELETE FROM " + this.schema.tablePrefix() + "leases");
		this.jdbc.update("DELETE FROM " + this.schema.tableName());
	}

	private RecurringJobEvaluator evaluator(String node) {
		return new RecurringJobEvaluator(this.store, JOBS, this.listener,
				new RecurringJobSettings(node, Duration.ofSeconds(1), Duration.ofMillis(2100), 2));
	}

	@Test
	void registrationComputesTheNextOccurrenceAndEachOccurrenceEnqueuesOneJob() {
		StoredRecurringJob stored = this.recurringJobs.register(definition("minutely", "* * * * *"));
		// CRON-07
		assertThat(stored.nextRunAt()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
		assertThat(this.evaluator.evaluate()).isZero();
		this.clock.set(Instant.parse("2026-01-01T00:01:00.400Z"));
		assertThat(this.evaluator.evaluate()).isEqualTo(1);
		assertThat(this.evaluator.evaluate()).as("the same occurrence again").isZero();
		List<Job> jobs = jobs();
		assertThat(jobs).singleElement().satisfies((job) -> {
			assertThat(job.type()).isEqualTo("report.build");
			assertThat(job.argsJson()).isEqualTo("[1]");
			assertThat(job.uniqueKey()).isEqualTo("cron:minutely:2026-01-01T00:01:00");
			// CRON-20
			assertThat(new JsonMapper().readValue(job.metaJson(), Map.class)).containsEntry("cron_name", "minutely")
				.containsEntry("team", "a")
				.containsEntry("cron_triggered_at", "2026-01-01T00:01:00Z");
		});
		StoredRecurringJob after = this.store.find("minutely").orElseThrow();
		assertThat(after.nextRunAt()).isEqualTo(Instant.parse("2026-01-01T00:02:00Z"));
		assertThat(after.lastRunAt()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
		assertThat(after.lastJobId()).isEqualTo(jobs.get(0).id());
		assertThat(after.lastOutcome()).isEqualTo("triggered");
		assertThat(after.runCount()).isEqualTo(1);
		// CRON-29
		assertThat(this.events).singleElement()
			.isEqualTo(new RecurringJobListener.Triggered("minutely", "* * * * *", "UTC", jobs.get(0).id(),
			"report.build",
					1, Instant.parse("2026-01-01T00:01:00Z"), Instant.parse("2026-01-01T00:01:00.400Z")));
	}

	@Test
	void missedOccurrencesFireOnceAfterDowntime() {
		this.recurringJobs.register(definition("minutely", "* * * * *"));
		this.clock.set(Instant.parse("2026-01-01T00:11:30Z"));
		assertThat(this.evaluator.evaluate()).isEqualTo(1);
		// CRON-25: one catch-up job (the first missed occurrence), next_run_at the first occurrence after now
		assertThat(jobs()).extracting(Job::uniqueKey).containsExactly("cron:minutely:2026-01-01T00:01:00");
		assertThat(this.store.find("minutely").orElseThrow().nextRunAt()).isEqualTo(Instant.parse("2026-01-01T00:12:00Z"));
	}

	@Test
	void dueRecurringJobsAreReadInBatchesUntilNoneIsDue() {
		for (int i = 0; i < 5; i++) {
			this.recurringJobs.register(definition("s" + i, "* * * * *"));
		}
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		assertThat(this.evaluator.evaluate()).as("batch size 2").isEqualTo(5);
		assertThat(jobs()).hasSize(5);
	}

	@Test
	void onlyTheLeaseHolderEvaluatesAndAStoppedHolderHandsOver() {
		RecurringJobEvaluator other = evaluator("node-b");
		try {
			this.recurringJobs.register(definition("minutely", "* * * * *"));
			this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
			assertThat(this.evaluator.evaluate()).isEqualTo(1);
			this.clock.set(Instant.parse("2026-01-01T00:02:00Z"));
			// CRON-21
			assertThat(other.evaluate()).isZero();
			assertThat(other.isLeader()).isFalse();
			assertThat(this.store.leaseHolder()).hasValue("node-a");
			this.evaluator.stop(Duration.ofSeconds(1));
			assertThat(other.evaluate()).isEqualTo(1);
			assertThat(other.isLeader()).isTrue();
			assertThat(jobs()).hasSize(2);
		}
		finally {
			other.stop(Duration.ofSeconds(1));
		}
	}

	/**
	 * A node asking for a lease another node holds is told no without a failed statement: the
	 * database and its driver would otherwise log a duplicate key error at every evaluation.
	 */
	@Test
	void askingForALeaseHeldElsewhereFailsNoStatement() {
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		JdbcJobStore recording = new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			Object result = call.proceed();
			return (result instanceof java.sql.PreparedStatement ps) ? failuresOf(ps, failures) : result;
		}), this.schema.settings(), this.clock);
		JdbcRecurringJobStore other = new JdbcRecurringJobStore(recording);
		assertThat(this.store.holdLease("node-a", Duration.ofSeconds(30))).isTrue();
		for (int i = 0; i < 3; i++) {
			assertThat(other.holdLease("node-b", Duration.ofSeconds(30))).isFalse();
		}
		assertThat(failures).isEmpty();
		assertThat(this.store.leaseHolder()).hasValue("node-a");
		this.store.releaseLease("node-a");
		assertThat(other.holdLease("node-b", Duration.ofSeconds(30))).isTrue();
		assertThat(this.store.leaseHolder()).hasValue("node-b");
	}

	/**
	 * Nodes that ask for a lease at the same moment, first when there is none, then each time its
	 * holder gives it up: one takes it each time and no statement fails (a released lease's row
	 * stays, so none of them inserts one; the first is created race-free but on H2 and MariaDB,
	 * where {@link #nodesRacingToCreateADeletedLeaseLetOneTakeIt} races for it).
	 */
	@Test
	void nodesRacingForAReleasedLeaseFailNoStatement() throws Exception {
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		List<JdbcRecurringJobStore> nodes = new java.util.ArrayList<>();
		for (int i = 0; i < 4; i++) {
			nodes.add(new JdbcRecurringJobStore(new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(),
					(call) -> {
						Object result = call.proceed();
						return (result instanceof java.sql.PreparedStatement ps) ? failuresOf(ps, failures) : result;
					}), this.schema.settings(), this.clock)));
		}
		java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(nodes.size());
		try {
			String holder = null;
			for (int round = 0; round < 10; round++) {
				if (holder != null) {
					nodes.get(Integer.parseInt(holder.substring(5))).releaseLease(holder);
				}
				else if (this.schema.database().kind() == TestDatabases.Kind.H2
						|| this.schema.database().kind() == TestDatabases.Kind.MARIADB) {
					// H2's racing inserts meet a duplicate key, MariaDB's may deadlock where the row
					// was deleted before (either taken as "held elsewhere")
					assertThat(nodes.get(0).holdLease("node-0", Duration.ofSeconds(30))).isTrue();
					holder = "node-0";
					continue;
				}
				List<String> winners = race(nodes, threads);
				assertThat(winners).as("round " + round).hasSize(1);
				holder = winners.get(0);
				assertThat(this.store.leaseHolder()).hasValue(holder);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(failures).isEmpty();
	}

	/**
	 * Nodes that ask for a lease at the same moment when its row was just deleted (as before each
	 * test): one takes it each time, and the others are told it is held elsewhere, also where the
	 * database makes one of their inserts a deadlock's victim (MariaDB).
	 */
	@Test
	void nodesRacingToCreateADeletedLeaseLetOneTakeIt() throws Exception {
		List<JdbcRecurringJobStore> nodes = new java.util.ArrayList<>();
		for (int i = 0; i < 4; i++) {
			nodes.add(new JdbcRecurringJobStore(new JdbcJobStore(this.schema.dataSource(), this.schema.settings(),
					this.clock)));
		}
		java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(nodes.size());
		try {
			for (int round = 0; round < 200; round++) {
				this.jdbc.update("DELETE FROM " + this.schema.tablePrefix() + "leases");
				List<String> winners = race(nodes, threads);
				assertThat(winners).as("round " + round).hasSize(1);
				assertThat(this.store.leaseHolder()).as("round " + round).hasValue(winners.get(0));
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	/** The nodes ask for the lease at the same moment, {@code node-i} each; returns those that got it. */
	private static List<String> race(List<JdbcRecurringJobStore> nodes, java.util.concurrent.ExecutorService threads)
			throws Exception {
		java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(nodes.size());
		List<java.util.concurrent.Future<Boolean>> asks = new java.util.ArrayList<>();
		for (int i = 0; i < nodes.size(); i++) {
			JdbcRecurringJobStore node = nodes.get(i);
			String id = "node-" + i;
			asks.add(threads.submit(() -> {
				start.await();
				return node.holdLease(id, Duration.ofSeconds(30));
			}));
		}
		List<String> winners = new java.util.ArrayList<>();
		for (int i = 0; i < asks.size(); i++) {
			if (asks.get(i).get(10, java.util.concurrent.TimeUnit.SECONDS)) {
				winners.add("node-" + i);
			}
		}
		return winners;
	}

	/** A statement that records what its executions throw. */
	private static java.sql.PreparedStatement failuresOf(java.sql.PreparedStatement target, List<Throwable> failures) {
		return (java.sql.PreparedStatement) java.lang.reflect.Proxy.newProxyInstance(
				AbstractRecurringJobEvaluatorTests.class.getClassLoader(), new Class<?>[] { java.sql.PreparedStatement.class },
				(proxy, method, args) -> {
					try {
						return method.invoke(target, args);
					}
					catch (java.lang.reflect.InvocationTargetException ex) {
						failures.add(ex.getCause());
						throw ex.getCause();
					}
				});
	}

	/**
	 * A holder that stops gracefully gives its lease up, so the next node takes it at its next evaluation:
	 * within one interval, not the lease's length (CRON-21, CRON-22). Two nodes, each with its own store,
	 * share the database and evaluate on their own threads.
	 */
	@Test
	void aGracefullyStoppedHolderHandsItsLeaseOverWithinOneInterval() {
		Duration interval = Duration.ofSeconds(1);
		Duration ttl = Duration.ofSeconds(30);
		Map<String, RecurringJobEvaluator> nodes = new java.util.LinkedHashMap<>();
		for (String node : List.of("node-c", "node-d")) {
			JdbcRecurringJobStore store = new JdbcRecurringJobStore(
					new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock));
			nodes.put(node, new RecurringJobEvaluator(store, JOBS, this.listener,
					new RecurringJobSettings(node, interval, ttl, 2)));
		}
		try {
			nodes.values().forEach(RecurringJobEvaluator::start);
			await().atMost(interval.multipliedBy(5)).until(() -> this.store.leaseHolder().isPresent());
			String holder = this.store.leaseHolder().orElseThrow();
			RecurringJobEvaluator successor = nodes.entrySet()
				.stream()
				.filter((node) -> !node.getKey().equals(holder))
				.map(Map.Entry::getValue)
				.findFirst()
				.orElseThrow();
			assertThat(successor.isLeader()).isFalse();
			long stoppedAt = System.nanoTime();
			nodes.get(holder).stop(interval);
			assertThat(nodes.get(holder).isLeader()).isFalse();
			// one interval to the successor's next evaluation, plus its evaluation on a loaded machine
			await().atMost(interval.multipliedBy(2)).pollInterval(Duration.ofMillis(20)).until(successor::isLeader);
			assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(ttl.dividedBy(10));
			assertThat(this.store.leaseHolder()).hasValue(nodes.entrySet()
				.stream()
				.filter((node) -> node.getValue() == successor)
				.map(Map.Entry::getKey)
				.findFirst()
				.orElseThrow());
		}
		finally {
			nodes.values().forEach((node) -> node.stop(interval));
		}
	}

	@Test
	void anExpiredLeaseIsTakenOverAndTheLeaderRenewsIt() {
		RecurringJobEvaluator other = evaluator("node-b");
		try {
			assertThat(this.evaluator.evaluate()).isZero();
			assertThat(this.evaluator.isLeader()).isTrue();
			// CRON-23: renewals keep it
			long until = System.nanoTime() + Duration.ofMillis(2500).toNanos();
			while (System.nanoTime() < until) {
				this.evaluator.evaluate();
				other.evaluate();
				assertThat(other.isLeader()).isFalse();
			}
			// CRON-22: a holder that stops renewing (dead) loses it within the lease's length
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				other.evaluate();
				return other.isLeader();
			});
			this.evaluator.evaluate();
			assertThat(this.evaluator.isLeader()).isFalse();
		}
		finally {
			other.stop(Duration.ofSeconds(1));
		}
	}

	@Test
	void aSecondEvaluatorThatIgnoresTheLeaseLosesTheCompareAndSet() {
		StoredRecurringJob stored = this.recurringJobs.register(definition("minutely", "* * * * *"));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		RecurringJobStore.Advance advance = new RecurringJobStore.Advance("minutely", stored.nextRunAt(), 0,
				Instant.parse("2026-01-01T00:02:00Z"), 0, stored.nextRunAt(), "triggered",
				JOBS.job(stored.definition(), Map.of("cron_name", "minutely"), stored.uniqueKey("a")), null);
		assertThat(this.store.advance(advance)).isPresent();
		assertThat(this.store.advance(advance)).isEmpty();
		assertThat(jobs()).hasSize(1);
	}

	@Test
	void overlapSkipSkipsWhileThePreviousJobIsUnfinished() {
		this.recurringJobs.register(definition("skipper", "* * * * *", "UTC", OverlapPolicy.SKIP));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		this.evaluator.evaluate();
		String first = jobs().get(0).id();
		this.clock.set(Instant.parse("2026-01-01T00:02:00Z"));
		this.evaluator.evaluate();
		// CRON-18, spec README item 15: an available (not running) previous job is unfinished too
		assertThat(jobs()).hasSize(1);
		assertThat(this.events).last()
			.isEqualTo(new RecurringJobListener.Skipped("skipper", "* * * * *", "UTC", "overlap_skip", first,
					Instant.parse("2026-01-01T00:02:00Z")));
		StoredRecurringJob stored = this.store.find("skipper").orElseThrow();
		assertThat(stored.lastOutcome()).isEqualTo("overlap_skip");
		assertThat(stored.nextRunAt()).isEqualTo(Instant.parse("2026-01-01T00:03:00Z"));
		setState(first, JobState.COMPLETED);
		this.clock.set(Instant.parse("2026-01-01T00:03:00Z"));
		this.evaluator.evaluate();
		assertThat(jobs()).hasSize(2);
	}

	@Test
	void overlapAllowEnqueuesRegardless() {
		this.recurringJobs.register(definition("allower", "* * * * *", "UTC", OverlapPolicy.ALLOW));
		for (int minute = 1; minute <= 3; minute++) {
			this.clock.set(START.plusSeconds(minute * 60 - 30));
			this.evaluator.evaluate();
		}
		assertThat(jobs()).hasSize(3).allMatch((job) -> job.state() == JobState.AVAILABLE);
	}

	@Test
	void overlapCancelPreviousCancelsTheUnstartedPreviousJob() {
		this.recurringJobs.register(definition("canceller", "* * * * *", "UTC", OverlapPolicy.CANCEL_PREVIOUS));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		this.evaluator.evaluate();
		String first = jobs().get(0).id();
		this.clock.set(Instant.parse("2026-01-01T00:02:00Z"));
		this.evaluator.evaluate();
		assertThat(this.jobs.find(first).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
		assertThat(jobs()).filteredOn((job) -> job.state() == JobState.AVAILABLE).hasSize(1);
	}

	@Test
	void overlapEnqueueHoldsOccurrencesUntilThePreviousJobFinishedThenEnqueuesThemOneAtATime() {
		this.recurringJobs.register(definition("queuer", "* * * * *", "UTC", OverlapPolicy.ENQUEUE));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		this.evaluator.evaluate();
		String first = jobs().get(0).id();
		setState(first, JobState.ACTIVE);
		this.clock.set(Instant.parse("2026-01-01T00:02:00Z"));
		this.evaluator.evaluate();
		this.clock.set(Instant.parse("2026-01-01T00:03:00Z"));
		this.evaluator.evaluate();
		assertThat(jobs()).hasSize(1);
		assertThat(this.store.find("queuer").orElseThrow().queuedRuns()).isEqualTo(2);
		setState(first, JobState.COMPLETED);
		this.clock.set(Instant.parse("2026-01-01T00:03:10Z"));
		this.evaluator.evaluate();
		assertThat(jobs()).hasSize(2);
		this.evaluator.evaluate();
		assertThat(jobs()).as("not while the second runs").hasSize(2);
		StoredRecurringJob stored = this.store.find("queuer").orElseThrow();
		assertThat(stored.queuedRuns()).isEqualTo(1);
		setState(stored.lastJobId(), JobState.COMPLETED);
		this.evaluator.evaluate();
		assertThat(jobs()).hasSize(3);
		assertThat(this.store.find("queuer").orElseThrow().queuedRuns()).isZero();
	}

	@Test
	void springForwardFiresNoJobForTheNonexistentTimeAndSaysSo() {
		// CRON-16 on the evaluator: 02:30 America/New_York does not exist on 2026-03-08
		this.clock.set(Instant.parse("2026-03-07T12:00:00Z"));
		this.recurringJobs.register(definition("dst", "30 2 * * *", "America/New_York", OverlapPolicy.ALLOW));
		for (int hour = 0; hour < 70; hour++) {
			this.clock.advance(Duration.ofHours(1));
			this.evaluator.evaluate();
		}
		assertThat(jobs()).extracting(Job::uniqueKey)
			.containsExactlyInAnyOrder("cron:dst:2026-03-09T02:30:00", "cron:dst:2026-03-10T02:30:00");
		assertThat(this.events).filteredOn(RecurringJobListener.Skipped.class::isInstance)
			.singleElement()
			.extracting((event) -> ((RecurringJobListener.Skipped) event).reason())
			.isEqualTo("dst_skip");
	}

	@Test
	void fallBackFiresTheRepeatedTimeOnce() {
		// CRON-17 on the evaluator: 01:30 America/New_York occurs twice on 2026-11-01
		this.clock.set(Instant.parse("2026-10-31T12:00:00Z"));
		this.recurringJobs.register(definition("dst", "30 1 * * *", "America/New_York", OverlapPolicy.ALLOW));
		for (int minutes = 0; minutes < 24 * 60; minutes += 10) {
			this.clock.advance(Duration.ofMinutes(10));
			this.evaluator.evaluate();
		}
		assertThat(jobs()).singleElement().satisfies((job) -> {
			assertThat(job.uniqueKey()).isEqualTo("cron:dst:2026-11-01T01:30:00");
			assertThat(job.createdAt()).isBetween(Instant.parse("2026-11-01T05:30:00Z"),
					Instant.parse("2026-11-01T05:40:00Z"));
		});
	}

	@Test
	void pauseAndResumePersistAndAPausedRecurringJobHasNoNextRun() {
		this.recurringJobs.register(definition("pausable", "* * * * *"));
		// CRON-28
		assertThat(this.recurringJobs.pause("pausable").nextRunAt()).isNull();
		assertThat(this.store.find("pausable").orElseThrow().nextRunAt()).isNull();
		this.clock.set(Instant.parse("2026-01-01T00:05:00Z"));
		assertThat(this.evaluator.evaluate()).isZero();
		// re-registration (a restart) keeps the pause
		assertThat(this.recurringJobs.register(definition("pausable", "* * * * *")).nextRunAt()).isNull();
		this.clock.set(Instant.parse("2026-01-01T00:05:10Z"));
		assertThat(this.recurringJobs.resume("pausable").nextRunAt()).isEqualTo(Instant.parse("2026-01-01T00:06:00Z"));
		assertThat(jobs()).isEmpty();
	}

	@Test
	void registrationIsAnUpsertThatKeepsHistoryAndRetimesOnANewExpression() {
		this.recurringJobs.register(definition("upsert", "* * * * *"));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		this.evaluator.evaluate();
		// CRON-26
		StoredRecurringJob changed = this.recurringJobs
			.register(new RecurringJobDefinition("upsert", "0 3 * * *", "Europe/Berlin", "report.other", "[2]", "{}",
			"q", 5,
					RetryPolicy.builder().maxAttempts(7).build(), OverlapPolicy.SKIP, true, "d", "app", true));
		assertThat(changed.nextRunAt()).isEqualTo(Instant.parse("2026-01-01T02:00:00Z"));
		assertThat(changed.runCount()).isEqualTo(1);
		assertThat(changed.createdAt()).isEqualTo(START);
		StoredRecurringJob read = this.store.find("upsert").orElseThrow();
		assertThat(read.definition()).isEqualTo(changed.definition());
		assertThat(read.definition().retry().maxAttempts()).isEqualTo(7);
		assertThat(this.store.findAll()).hasSize(1);
	}

	@Test
	void recurringJobRetryOverrideIsStoredAsTheJobsOwnRetryFields() {
		this.recurringJobs.register(new RecurringJobDefinition("retrying", "* * * * *", "UTC", "report.build", "[]",
				"{}", null, null, RetryPolicy.builder().maxAttempts(9).build(), OverlapPolicy.ALLOW, true, null, "app",
				false));
		this.clock.set(Instant.parse("2026-01-01T00:01:00Z"));
		this.evaluator.evaluate();
		assertThat(jobs()).singleElement().satisfies((job) -> assertThat(job.retryPolicy().maxAttempts()).isEqualTo(9));
	}

	@Test
	void applicationsNeverChangeEachOthersRecurringJobs() {
		RecurringJobs other = new RecurringJobs(this.store, JOBS, "other");
		this.recurringJobs.register(definition("mine", "* * * * *"));
		this.recurringJobs.register(definition("dropped", "* * * * *"));
		other.register(definition("theirs", "* * * * *"));
		assertThatExceptionOfType(RecurringJobOwnershipException.class)
			.isThrownBy(() -> other.register(definition("mine", "0 * * * *")))
			.withMessageContaining("'app'");
		assertThatExceptionOfType(RecurringJobOwnershipException.class).isThrownBy(() -> other.pause("mine"));
		assertThatExceptionOfType(RecurringJobOwnershipException.class).isThrownBy(() -> other.remove("mine"));
		// "dropped" is no longer declared by its owner: disabled, kept; "theirs" untouched
		this.recurringJobs.reconcile(List.of(definition("mine", "* * * * *")));
		StoredRecurringJob dropped = this.store.find("dropped").orElseThrow();
		assertThat(dropped.definition().enabled()).isFalse();
		assertThat(dropped.nextRunAt()).isNull();
		assertThat(this.store.find("theirs").orElseThrow().nextRunAt()).isNotNull();
		assertThat(this.store.find("mine").orElseThrow().nextRunAt()).isNotNull();
		other.reconcile(List.of());
		assertThat(this.store.find("mine").orElseThrow().definition().enabled()).isTrue();
		assertThat(this.store.find("theirs").orElseThrow().definition().enabled()).isFalse();
	}

	@Test
	void removeAndTriggerNow() {
		this.recurringJobs.register(definition("manual", "@yearly"));
		String id = this.recurringJobs.trigger("manual");
		assertThat(this.jobs.find(id)).isPresent();
		assertThat(this.store.find("manual").orElseThrow().lastJobId()).isEqualTo(id);
		assertThat(this.store.find("manual").orElseThrow().nextRunAt()).isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
		assertThat(this.recurringJobs.remove("manual")).isTrue();
		// CRON-27
		assertThat(this.recurringJobs.remove("manual")).isFalse();
		assertThat(this.jobs.find(id)).as("its jobs stay").isPresent();
	}

	@Test
	void occurrencesCommittedTogetherEachAdvanceOnceAndALostCompareAndSetWritesNothing() {
		for (String name : List.of("c", "a", "b")) {
			this.recurringJobs.register(definition(name, "* * * * *"));
		}
		Instant occurrence = Instant.parse("2026-01-01T00:01:00Z");
		this.clock.set(occurrence.plusMillis(400));
		List<StoredRecurringJob> due = this.store.findDue(this.clock.instant(), 10);
		assertThat(due).hasSize(3);
		List<RecurringJobStore.Advance> advances = due.stream()
			.map((stored) -> new RecurringJobStore.Advance(stored.name(),
					stored.name().equals("b") ? occurrence.minusSeconds(60) : stored.nextRunAt(), 0,
					occurrence.plusSeconds(60), 0, occurrence, "triggered",
					JOBS.job(stored.definition(), Map.of("cron_name", stored.name()),
							stored.uniqueKey("2026-01-01T00:01:00")),
					null))
			.toList();
		// ojs-cron.md §7.3: "b" was read at another occurrence, so its compare-and-set loses
		List<Optional<RecurringJobStore.Advanced>> outcomes = this.store.advanceAll(advances);
		for (int i = 0; i < due.size(); i++) {
			assertThat(outcomes.get(i).isPresent()).as(due.get(i).name()).isEqualTo(!due.get(i).name().equals("b"));
		}
		assertThat(jobs()).extracting(Job::uniqueKey)
			.containsExactlyInAnyOrder("cron:a:2026-01-01T00:01:00", "cron:c:2026-01-01T00:01:00");
		assertThat(this.store.advanceAll(advances)).as("the same occurrences again").allMatch(Optional::isEmpty);
		assertThat(jobs()).hasSize(2);
	}

	private List<Job> jobs() {
		return this.jdbc.queryForList("SELECT id FROM " + this.schema.tableName() + " ORDER BY created_at, id",
				String.class)
			.stream()
			.map((id) -> this.jobs.find(id).orElseThrow())
			.toList();
	}

	private void setState(String id, JobState state) {
		String idParam = (kind() == TestDatabases.Kind.POSTGRESQL) ? "CAST(? AS uuid)" : "?";
		this.jdbc.update("UPDATE " + this.schema.tableName() + " SET state = ? WHERE id = " + idParam, state.value(), id);
	}

}
