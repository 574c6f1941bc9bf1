package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.worker.RetentionSettings;
import dev.ojs.job.Timestamps;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.LazyErrorHistory;
import dev.ojs.job.NewJob;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.QueueState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.MutableClock;
import dev.ojs.testsupport.RejectingDataSource;
import dev.ojs.testsupport.StoredJobs;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The JDBC store's SQL, run against each database by a subclass.
 */
abstract class AbstractJdbcJobStoreTests extends DatabaseTests {

	static final String NODE = "node-a";

	static final Map<String, Duration> EMAIL = Map.of("email.send", Duration.ofSeconds(30));

	MutableClock clock;

	JdbcJobStore store;

	@BeforeEach
	void setUp() {
		this.schema.clear();
		this.clock = MutableClock.startingNow();
		this.store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
	}

	@Test
	void insertThenFindReturnsEveryField() {
		RetryPolicy policy = RetryPolicy.builder().maxAttempts(7).onExhaustion(OnExhaustion.DEAD_LETTER).build().effective();
		String id = insertOne(job("email.send").queue("mail").priority(5)
			.args("[\"u1\",{\"n\":2}]")
			.meta("{\"trace\":\"abc\"}")
			.policy(policy));
		Job stored = this.store.find(id).orElseThrow();
		assertThat(stored.id()).isEqualTo(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
		assertThat(stored.type()).isEqualTo("email.send");
		assertThat(stored.queue()).isEqualTo("mail");
		assertThat(stored.priority()).isEqualTo(5);
		assertThat(stored.argsJson().replace(" ", "")).isEqualTo("[\"u1\",{\"n\":2}]");
		assertThat(stored.metaJson().replace(" ", "")).isEqualTo("{\"trace\":\"abc\"}");
		assertThat(stored.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(stored.attempt()).isZero();
		assertThat(stored.maxAttempts()).isEqualTo(7);
		assertThat(stored.retryPolicy()).isEqualTo(policy);
		assertThat(stored.errors()).isEmpty();
		assertThat(stored.deadLetter()).isFalse();
		assertThat(stored.createdAt()).isEqualTo(this.clock.instant());
		assertThat(stored.enqueuedAt()).isEqualTo(stored.createdAt());
		assertThat(stored.scheduledAt()).isEqualTo(this.clock.instant());
		assertThat(stored.startedAt()).isNull();
		assertThat(stored.lockedBy()).isNull();
		assertThat(this.store.find("not-an-id")).isEmpty();
		assertThat(this.store.find("01890a5d-ac96-774b-bcce-b302099a8057")).isEmpty();
	}

	@Test
	void batchInsertWritesAllJobsInOrder() {
		List<NewJob> jobs = IntStream.range(0, 1200).mapToObj((i) -> job("email.send").args("[" + i + "]").build()).toList();
		List<String> ids = this.store.insert(jobs);
		assertThat(ids).hasSize(1200).doesNotHaveDuplicates();
		assertThat(ids).isSorted();
		assertThat(this.store.countByQueueAndState()).containsEntry("default", Map.of(JobState.AVAILABLE, 1200L));
		assertThat(this.store.find(ids.get(777)).orElseThrow().argsJson()).isEqualTo("[777]");
	}

	@Test
	void batchInsertKeepsEachRowsOwnFields() {
		// PostgreSQL binds a batch as one array per column: values that need quoting in an array
		RetryPolicy policy = RetryPolicy.builder().maxAttempts(7).build();
		Instant later = this.clock.instant().plusSeconds(60);
		List<String> ids = this.store.insert(List.of(
				job("email.send").args("[\"a \\\"quoted\\\" \\\\ {x, y} NULL\", null, \"ü€\"]").build(),
				job("report.build").queue("reports").priority(-3).meta("{\"k\":\"v, w\"}").policy(policy).build(),
				job("email.send").runAt(later).build(), job("email.send").runAt(Timestamps.MAX).build()));
		Job quoted = this.store.find(ids.get(0)).orElseThrow();
		assertThat(quoted.argsJson().replace(" ", "")).isEqualTo("[\"a\\\"quoted\\\"\\\\{x,y}NULL\",null,\"ü€\"]");
		assertThat(quoted.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(quoted.scheduledAt()).isEqualTo(this.clock.instant());
		Job report = this.store.find(ids.get(1)).orElseThrow();
		assertThat(report.type()).isEqualTo("report.build");
		assertThat(report.queue()).isEqualTo("reports");
		assertThat(report.priority()).isEqualTo(-3);
		assertThat(report.metaJson().replace(" ", "")).isEqualTo("{\"k\":\"v,w\"}");
		assertThat(report.maxAttempts()).isEqualTo(7);
		assertThat(report.retryPolicy().maxAttempts()).isEqualTo(7);
		Job delayed = this.store.find(ids.get(2)).orElseThrow();
		assertThat(delayed.state()).isEqualTo(JobState.SCHEDULED);
		assertThat(delayed.scheduledAt()).isEqualTo(later);
		assertThat(delayed.createdAt()).isEqualTo(this.clock.instant());
		assertThat(this.store.find(ids.get(3)).orElseThrow().scheduledAt()).isEqualTo(Timestamps.MAX);
	}

	@Test
	void insertWithoutATransactionCommitsOnAPoolWithoutAutoCommit() {
		// one auto-committed statement needs no transaction; connections without auto-commit do
		javax.sql.DataSource manual = new org.springframework.jdbc.datasource.DelegatingDataSource(
				this.schema.dataSource()) {
			@Override
			public java.sql.Connection getConnection() throws java.sql.SQLException {
				java.sql.Connection connection = super.getConnection();
				connection.setAutoCommit(false);
				return connection;
			}
		};
		JdbcJobStore manualStore = new JdbcJobStore(manual, this.schema.settings(), this.clock);
		List<String> ids = manualStore.insert(List.of(job("email.send").build(), job("email.send").build()));
		assertThat(this.store.find(ids.get(1))).isPresent();
		assertThat(total()).isEqualTo(2);
	}

	@Test
	void largeBatchInsertIsWrittenWhole() {
		// more rows than PostgreSQL's insert statement takes at once
		List<NewJob> jobs = IntStream.range(0, 5_001).mapToObj((i) -> job("email.send").args("[" + i + "]").build())
			.toList();
		List<String> ids = this.store.insert(jobs);
		assertThat(ids).hasSize(5_001).doesNotHaveDuplicates();
		assertThat(this.store.countByQueueAndState()).containsEntry("default", Map.of(JobState.AVAILABLE, 5_001L));
		assertThat(this.store.find(ids.get(5_000)).orElseThrow().argsJson()).isEqualTo("[5000]");
	}

	@Test
	void uniqueKeyReturnsTheLiveJob() {
		String first = insertOne(job("email.send").uniqueKey("welcome:u1"));
		List<String> again = this.store.insert(List.of(job("email.send").uniqueKey("welcome:u1").build(),
				job("email.send").uniqueKey("welcome:u2").build(), job("email.send").uniqueKey("welcome:u2").build()));
		assertThat(again.get(0)).isEqualTo(first);
		assertThat(again.get(1)).isNotEqualTo(first).isEqualTo(again.get(2));
		assertThat(total()).isEqualTo(2);
		// once the holder is finished, the key is free again
		Job claimed = claim(10).stream().filter((job) -> job.id().equals(first)).findFirst().orElseThrow();
		assertThat(this.store.complete(List.of(claimed), false)).containsExactly(first);
		String next = insertOne(job("email.send").uniqueKey("welcome:u1"));
		assertThat(next).isNotEqualTo(first);
		assertThat(total()).isEqualTo(3);
	}

	@Test
	void uniqueKeysAreScopedByType() {
		String email = insertOne(job("email.send").uniqueKey("u1"));
		String sms = insertOne(job("sms.send").uniqueKey("u1"));
		assertThat(sms).isNotEqualTo(email);
		assertThat(insertOne(job("sms.send").uniqueKey("u1"))).isEqualTo(sms);
		assertThat(insertOne(job("email.send").uniqueKey("u1"))).isEqualTo(email);
		// within one batch too
		List<String> batch = this.store.insert(List.of(job("push.send").uniqueKey("u2").build(),
				job("email.send").uniqueKey("u2").build(), job("push.send").uniqueKey("u2").build()));
		assertThat(batch.get(0)).isNotEqualTo(batch.get(1)).isEqualTo(batch.get(2));
		assertThat(total()).isEqualTo(4);
		// a dead letter comes back unless a live job of its own type holds its key
		String dead = deadLetter(job("report.build").uniqueKey("u3"), "x.failed");
		insertOne(job("email.send").uniqueKey("u3"));
		assertThat(this.store.retryDeadLetter(dead)).isTrue();
		assertThat(insertOne(job("report.build").uniqueKey("u3"))).isEqualTo(dead);
	}

	/**
	 * A claim in progress holds only the jobs it claims: the next due job of its own queue,
	 * and the due job of the queue after it in the claim index, stay claimable by a concurrent
	 * claim (InnoDB would keep the entry past a locked range locked until the claim commits).
	 */
	@Test
	void aClaimInProgressHoldsOnlyTheJobsItClaims() throws Exception {
		String next = insertOne(job("email.send").queue("queue-b"));
		if (kind() != TestDatabases.Kind.H2) {
			// (H2 has no SKIP LOCKED: a claim waits for a concurrent claim of its queue)
			String first = insertOne(job("email.send").queue("queue-a"));
			this.clock.advance(Duration.ofMillis(1));
			String second = insertOne(job("email.send").queue("queue-a"));
			// the first job is read as due but locked: the other claim goes on past it
			assertThat(whileClaiming("queue-a", 1, () -> assertThat(this.store.claim("node-b", "queue-a", EMAIL, 1))
				.extracting(Job::id)
				.containsExactly(second))).extracting(Job::id).containsExactly(first);
		}
		String third = insertOne(job("email.send").queue("queue-a"));
		// this claim reads to the end of queue-a's due range
		assertThat(whileClaiming("queue-a", 10, () -> assertThat(this.store.claim("node-b", "queue-b", EMAIL, 10))
			.extracting(Job::id)
			.containsExactly(next))).extracting(Job::id).containsExactly(third);
	}

	/** Claims from {@code queue} in a transaction held open while {@code meanwhile} runs; the jobs it claimed. */
	private List<Job> whileClaiming(String queue, int limit, Runnable meanwhile) throws Exception {
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
		ExecutorService other = Executors.newSingleThreadExecutor();
		CountDownLatch claimed = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		try {
			// the claim joins this transaction, so its locks last until the transaction ends
			Future<List<Job>> holding = other.submit(() -> tx.execute((status) -> {
				List<Job> jobs = this.store.claim(NODE, queue, EMAIL, limit);
				claimed.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return jobs;
			}));
			assertThat(claimed.await(30, TimeUnit.SECONDS)).isTrue();
			meanwhile.run();
			release.countDown();
			return get(holding);
		}
		finally {
			release.countDown();
			other.shutdownNow();
		}
	}

	@Test
	void uniqueEnqueueInARepeatableReadTransactionFindsAHolderCommittedMeanwhile() throws Exception {
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
		tx.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
		ExecutorService other = Executors.newSingleThreadExecutor();
		try {
			String[] holder = new String[1];
			TransactionCallback<String> enqueue = (status) -> {
				// the transaction's snapshot is taken by its first read
				assertThat(total()).isEqualTo((holder[0] != null) ? 1 : 0);
				if (holder[0] == null) {
					holder[0] = get(other.submit(() -> insertOne(job("email.send").uniqueKey("rr"))));
				}
				return insertOne(job("email.send").uniqueKey("rr"));
			};
			if (kind() != TestDatabases.Kind.MARIADB) {
				// PostgreSQL and H2 refuse a conflict with a row the snapshot cannot see: the
				// caller retries its transaction, which then finds the holder
				assertThatExceptionOfType(ConcurrencyFailureException.class).isThrownBy(() -> tx.execute(enqueue));
			}
			String id = tx.execute(enqueue);
			assertThat(id).isEqualTo(holder[0]);
			assertThat(total()).isEqualTo(1);
		}
		finally {
			other.shutdownNow();
		}
	}

	@Test
	void concurrentUniqueEnqueuesInsertOneJob() throws Exception {
		for (int round = 0; round < 5; round++) {
			String key = "race-" + round;
			Set<String> ids = race(() -> insertOne(job("email.send").uniqueKey(key)));
			assertThat(ids).as("ids of round " + round).hasSize(1);
			assertThat(this.store.find(ids.iterator().next()).orElseThrow().uniqueKey()).isEqualTo(key);
		}
		assertThat(total()).isEqualTo(5);
	}

	/**
	 * Decision 35: racing inserts past a holder's period release its key once and insert one
	 * job; the others get that job, and no lock conflict reaches them (rounds, as a deadlock
	 * shows up in some interleavings only).
	 */
	@Test
	void concurrentUniqueEnqueuesPastThePeriodInsertOneJob() throws Exception {
		dev.ojs.job.UniqueScope hour = new dev.ojs.job.UniqueScope(Duration.ofHours(1), Set.of());
		Set<String> ids = Set.of();
		for (int round = 0; round < 5; round++) {
			String key = "period-race-" + round;
			String old = insertOne(job("email.send").uniqueKey(key).uniqueScope(hour));
			this.clock.advance(Duration.ofHours(2));
			ids = race(() -> insertOne(job("email.send").uniqueKey(key).uniqueScope(hour)));
			assertThat(ids).as("ids of round " + round).hasSize(1).doesNotContain(old);
			assertThat(this.store.find(old).orElseThrow().uniqueKey()).isNull();
			assertThat(this.store.find(ids.iterator().next()).orElseThrow().uniqueKey()).isEqualTo(key);
		}
		assertThat(total()).isEqualTo(10);
		// an available holder outside the scope's states gives up its key too
		dev.ojs.job.UniqueScope scheduled = new dev.ojs.job.UniqueScope(null, Set.of(JobState.SCHEDULED));
		assertThat(insertOne(job("email.send").uniqueKey("period-race-4").uniqueScope(scheduled)))
			.isNotEqualTo(ids.iterator().next());
	}

	/** A chosen id inserted by racing producers is one job; each gets the id. */
	@Test
	void concurrentEnqueuesWithOneChosenIdInsertOneJob() throws Exception {
		String id = "019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f";
		assertThat(race(() -> insertOne(job("email.send").id(id)))).containsExactly(id);
		assertThat(total()).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> insertOne(job("email.send").id("not-a-uuid")));
	}

	private Set<String> race(java.util.concurrent.Callable<String> insert) throws Exception {
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<String>> futures = new ArrayList<>();
			for (int n = 0; n < threads; n++) {
				futures.add(pool.submit(() -> {
					start.await();
					return insert.call();
				}));
			}
			start.countDown();
			Set<String> ids = new HashSet<>();
			for (Future<String> future : futures) {
				ids.add(future.get(60, TimeUnit.SECONDS));
			}
			return ids;
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void delayedJobIsClaimableOnlyWhenDue() {
		String id = insertOne(job("email.send").runAt(this.clock.instant().plusSeconds(60)));
		Job stored = this.store.find(id).orElseThrow();
		assertThat(stored.state()).isEqualTo(JobState.SCHEDULED);
		assertThat(stored.scheduledAt()).isEqualTo(this.clock.instant().plusSeconds(60));
		assertThat(claim(10)).isEmpty();
		assertThat(this.store.nextDueTimes("default", 10)).containsExactly(stored.scheduledAt());
		this.clock.advance(Duration.ofSeconds(59));
		assertThat(claim(10)).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(claim(10)).extracting(Job::id).containsExactly(id);
		assertThat(this.store.nextDueTimes("default", 10)).isEmpty();
	}

	/**
	 * ojs-conformance.md L2-TTL-001/002, decision 17: a job past its expires_at is never
	 * claimed, and the expirer discards it (discarded_at, no completed_at, no error entry, no
	 * dead letter) in every waiting state; jobs without expiry, or not yet expired, are untouched.
	 */
	@Test
	void expiredJobIsNeverClaimedAndIsDiscarded() {
		Instant now = this.clock.instant();
		String expiring = insertOne(job("email.send").expiresAt(now.plusSeconds(10)));
		String never = insertOne(job("email.send"));
		String later = insertOne(job("email.send").expiresAt(now.plusSeconds(60)));
		String scheduled = insertOne(job("email.send").runAt(now.plusSeconds(5)).expiresAt(now.plusSeconds(10)));
		String pending = this.store.insert(List.of(new NewJob("email.send", "default", 0, "[]", "{}", null, null, null,
				3, true, now.plusSeconds(10)))).get(0);
		assertThat(this.store.find(expiring).orElseThrow().expiresAt()).isEqualTo(now.plusSeconds(10));
		assertThat(this.store.find(never).orElseThrow().expiresAt()).isNull();
		this.clock.advance(Duration.ofSeconds(10));

		// before any sweep, the claim passes over the expired jobs
		assertThat(claim(10)).extracting(Job::id).containsExactlyInAnyOrder(never, later);

		List<Job> expired = this.store.expire(100);
		assertThat(expired).extracting(Job::id).containsExactlyInAnyOrder(expiring, scheduled, pending);
		for (String id : List.of(expiring, scheduled, pending)) {
			Job stored = this.store.find(id).orElseThrow();
			assertThat(stored.state()).isEqualTo(JobState.DISCARDED);
			assertThat(stored.discardedAt()).isEqualTo(this.clock.instant());
			assertThat(stored.completedAt()).isNull();
			assertThat(stored.startedAt()).isNull();
			assertThat(stored.deadLetter()).isFalse();
			assertThat(stored.errors()).isEmpty();
		}
		assertThat(expired).allSatisfy((job) -> {
			assertThat(job.state()).isEqualTo(JobState.DISCARDED);
			assertThat(job.discardedAt()).isEqualTo(this.clock.instant());
		});
		assertThat(this.store.find(never).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.store.expire(100)).isEmpty();
	}

	/** L2-TTL-001: expires_at bounds the start; a job that started runs to its outcome. */
	@Test
	void activeJobIsNotExpiredMidRun() {
		String id = insertOne(job("email.send").expiresAt(this.clock.instant().plusSeconds(5)));
		Job claimed = claim(1).get(0);
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.store.expire(100)).isEmpty();
		assertThat(this.store.find(id).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.store.complete(List.of(claimed), false)).containsExactly(id);
		Job completed = this.store.find(id).orElseThrow();
		assertThat(completed.state()).isEqualTo(JobState.COMPLETED);
		assertThat(completed.discardedAt()).isNull();
	}

	@Test
	void expiryRunsInBatchesEarliestFirst() {
		Instant now = this.clock.instant();
		List<String> ids = this.store.insert(IntStream.range(0, 5)
			.mapToObj((i) -> job("email.send").expiresAt(now.plusSeconds(5 - i)).build())
			.toList());
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.store.expire(2)).extracting(Job::id).containsExactly(ids.get(4), ids.get(3));
		assertThat(this.store.expire(10)).extracting(Job::id).containsExactly(ids.get(2), ids.get(1), ids.get(0));
	}

	/** The schema script adds expires_at to a table created before it (not on MySQL: see its script). */
	@Test
	void schemaScriptAddsExpiryToAnOlderTable() {
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String table = this.schema.tableName();
		if (this.store.platform() == JdbcPlatform.POSTGRESQL) {
			jdbc.execute("DROP INDEX " + table + "_expires_idx");
		}
		else {
			// the generated column and its index, as a table created before expiry has neither
			jdbc.execute("DROP INDEX " + table + "_expires_idx"
					+ ((this.store.platform() == JdbcPlatform.H2) ? "" : " ON " + table));
			jdbc.execute("ALTER TABLE " + table + " DROP COLUMN live_expires_at");
		}
		jdbc.execute("ALTER TABLE " + table + " DROP COLUMN expires_at");
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		Instant at = this.clock.instant().plusSeconds(1);
		String id = insertOne(job("email.send").expiresAt(at));
		assertThat(this.store.find(id).orElseThrow().expiresAt()).isEqualTo(at);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.store.expire(10)).extracting(Job::id).containsExactly(id);
	}

	@Test
	void batchInsertKeepsEachRowsExpiry() {
		// PostgreSQL binds a batch as one array per column, or once when the rows differ only in args
		Instant at = this.clock.instant().plusSeconds(30).plusNanos(123_456_000);
		List<String> mixed = this.store.insert(List.of(job("email.send").expiresAt(at).build(),
				job("email.send").build(), job("email.send").expiresAt(at.plusSeconds(1)).build()));
		assertThat(mixed.stream().map((id) -> this.store.find(id).orElseThrow().expiresAt()))
			.containsExactly(at, null, at.plusSeconds(1));
		List<String> uniform = this.store.insert(List.of(job("email.send").args("[1]").expiresAt(at).build(),
				job("email.send").args("[2]").expiresAt(at).build()));
		assertThat(uniform.stream().map((id) -> this.store.find(id).orElseThrow().expiresAt())).containsOnly(at);
		String unique = insertOne(job("email.send").uniqueKey("k").expiresAt(at));
		assertThat(this.store.find(unique).orElseThrow().expiresAt()).isEqualTo(at);
	}

	@Test
	void claimOrderIsPriorityThenFifo() {
		List<String> ids = this.store.insert(List.of(job("email.send").priority(0).build(),
				job("email.send").priority(10).build(), job("email.send").priority(0).build(),
				job("email.send").priority(10).build(), job("email.send").priority(-5).build()));
		this.clock.advance(Duration.ofMillis(1));
		String later = insertOne(job("email.send").priority(10));
		List<String> claimed = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			claimed.addAll(claim(1).stream().map(Job::id).toList());
		}
		assertThat(claimed).containsExactly(ids.get(1), ids.get(3), later, ids.get(0), ids.get(2), ids.get(4));
		// a batch comes back in the same order
		this.schema.clear();
		List<String> batch = this.store.insert(List.of(job("email.send").priority(1).build(),
				job("email.send").priority(2).build(), job("email.send").priority(1).build()));
		assertThat(claim(10)).extracting(Job::id).containsExactly(batch.get(1), batch.get(0), batch.get(2));
	}

	@Test
	void claimReservesOnlyServedTypesAndQueuesWithinTheLimit() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build(), job("email.send").build(),
				job("sms.send").build(), job("report.build").build(), job("email.send").queue("other").build()));
		Map<String, Duration> types = new LinkedHashMap<>();
		types.put("email.send", Duration.ofSeconds(30));
		types.put("sms.send", Duration.ofSeconds(90));
		List<Job> claimed = this.store.claim(NODE, "default", types, 3);
		assertThat(claimed).hasSize(3);
		List<Job> rest = this.store.claim(NODE, "default", types, 10);
		assertThat(rest).hasSize(1);
		List<Job> all = new ArrayList<>(claimed);
		all.addAll(rest);
		assertThat(all).extracting(Job::type).containsOnly("email.send", "sms.send");
		for (Job job : all) {
			assertThat(job.state()).isEqualTo(JobState.ACTIVE);
			assertThat(job.attempt()).isEqualTo(1);
			assertThat(job.lockedBy()).isEqualTo(NODE);
			assertThat(job.startedAt()).isEqualTo(this.clock.instant());
			assertThat(job.lockedUntil()).isEqualTo(this.clock.instant().plus(types.get(job.type())));
			assertThat(this.store.find(job.id()).orElseThrow()).isEqualTo(job);
		}
		assertThat(this.store.countByQueueAndState()).containsEntry("default",
				Map.of(JobState.ACTIVE, 4L, JobState.AVAILABLE, 1L))
			.containsEntry("other", Map.of(JobState.AVAILABLE, 1L));
	}

	@Test
	void concurrentClaimsNeverShareAJob() throws Exception {
		this.store.insert(IntStream.range(0, 600).mapToObj((i) -> job("email.send").build()).toList());
		Set<String> seen = ConcurrentHashMap.newKeySet();
		List<String> duplicates = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(4);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> futures = new ArrayList<>();
		for (int n = 0; n < 4; n++) {
			String node = "node-" + n;
			futures.add(pool.submit(() -> {
				start.await();
				int empty = 0;
				while (empty < 3) {
					List<Job> jobs = this.store.claim(node, "default", EMAIL, 25);
					empty = jobs.isEmpty() ? empty + 1 : 0;
					for (Job job : jobs) {
						if (!seen.add(job.id())) {
							duplicates.add(job.id());
						}
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		pool.shutdown();
		assertThat(duplicates).isEmpty();
		assertThat(seen).hasSize(600);
	}

	@Test
	void completionIsGuardedByAttemptAndOwner() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = claim(2);
		Job first = claimed.get(0);
		Job second = claimed.get(1);
		Job wrongOwner = StoredJobs.from(first).lockedBy("node-b").build();
		Job wrongAttempt = StoredJobs.from(second).attempt(2).build();
		assertThat(this.store.complete(List.of(wrongOwner, wrongAttempt), false)).isEmpty();
		this.clock.advance(Duration.ofMillis(5));
		assertThat(this.store.complete(List.of(first), false)).containsExactly(first.id());
		Job completed = this.store.find(first.id()).orElseThrow();
		assertThat(completed.state()).isEqualTo(JobState.COMPLETED);
		assertThat(completed.completedAt()).isEqualTo(this.clock.instant());
		assertThat(completed.lockedUntil()).isNull();
		assertThat(this.store.complete(List.of(first), false)).as("second completion").isEmpty();
		assertThat(this.store.complete(List.of(second), true)).containsExactly(second.id());
		assertThat(this.store.find(second.id())).isEmpty();
	}

	@Test
	void aJobIsReadWithTheErrorsOfItsOwnVersion() {
		this.store.insert(List.of(job("email.send").build()));
		Job claimed = claim(1).get(0);
		AtomicBoolean failed = new AtomicBoolean();
		DataSource racing = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && sql.startsWith("SELECT job_id, error FROM") && failed.compareAndSet(false, true)) {
				// the attempt fails between the read of the job's row and that of its history
				assertThat(this.store.fail(List.of(timeout(claimed)))).containsExactly(claimed.id());
			}
			return call.proceed();
		});
		Job read = new JdbcJobStore(racing, this.schema.settings(), this.clock).find(claimed.id()).orElseThrow();
		assertThat(failed).isTrue();
		assertThat(read.state()).isEqualTo(JobState.ACTIVE);
		assertThat(read.errors()).as("errors of the version read").isEmpty();
		Job now = this.store.find(claimed.id()).orElseThrow();
		assertThat(now.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(now.errors()).hasSize(1);
	}

	@Test
	void failureWritesRetryOrDiscardGuarded() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = claim(2);
		Instant now = this.store.now();
		Instant retryAt = now.plusSeconds(2);
		AttemptFailure retry = new AttemptFailure(claimed.get(0), JobState.RETRYABLE, retryAt,
				List.of(error(1, "external.timeout", now)), false, now);
		AttemptFailure dead = new AttemptFailure(claimed.get(1), JobState.DISCARDED, null,
				List.of(error(1, "payment.declined", now)), true, now);
		AttemptFailure stale = new AttemptFailure(StoredJobs.from(claimed.get(0)).attempt(3).build(),
				JobState.DISCARDED, null, List.of(), false, now);
		assertThat(this.store.fail(List.of(stale))).isEmpty();
		assertThat(this.store.fail(List.of(retry, dead))).containsExactlyInAnyOrder(claimed.get(0).id(),
				claimed.get(1).id());
		Job retrying = this.store.find(claimed.get(0).id()).orElseThrow();
		assertThat(retrying.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(retrying.nextRetryAt()).isEqualTo(retryAt);
		assertThat(retrying.attempt()).isEqualTo(1);
		assertThat(retrying.errors()).containsExactly(error(1, "external.timeout", now));
		assertThat(retrying.lockedUntil()).isNull();
		Job deadLetter = this.store.find(claimed.get(1).id()).orElseThrow();
		assertThat(deadLetter.state()).isEqualTo(JobState.DISCARDED);
		assertThat(deadLetter.deadLetter()).isTrue();
		assertThat(deadLetter.discardedAt()).isEqualTo(now);
		// L0-LC-006, L1-RTR-006: a job that ran and ended has completed_at, whatever its outcome
		assertThat(deadLetter.completedAt()).isEqualTo(now);
		assertThat(retrying.completedAt()).isNull();
		// RET-11: not claimable before next_retry_at
		assertThat(claim(10)).isEmpty();
		this.clock.advance(Duration.ofSeconds(2));
		Job second = claim(10).get(0);
		assertThat(second.id()).isEqualTo(retrying.id());
		assertThat(second.attempt()).isEqualTo(2);
		assertThat(second.errors()).hasSize(1);
		// a retry after a failure is the same enqueue
		assertThat(second.createdAt()).isEqualTo(claimed.get(0).createdAt());
		assertThat(second.enqueuedAt()).isEqualTo(claimed.get(0).createdAt());
		assertThat(this.store.find(second.id()).orElseThrow().enqueuedAt()).isEqualTo(claimed.get(0).createdAt());
	}

	/**
	 * A claim while a rescuer's transaction is open still takes a job that just became due:
	 * the rescuer locks only the expired reservations it reaps, never the job next to them in
	 * its index (on MariaDB, the first waiting job), which the claim's {@code SKIP LOCKED}
	 * would skip (an enqueue then a fetch that returned no job, L0-LC-006).
	 */
	@Test
	void claimDuringRescueTakesTheJobNextToTheExpiredReservations() throws Exception {
		insertOne(job("email.send").queue("other"));
		List<Job> expired = this.store.claim(NODE, "other", EMAIL, 1);
		this.clock.advance(Duration.ofSeconds(31));
		String due = insertOne(job("email.send"));
		ExecutorService claimer = Executors.newSingleThreadExecutor();
		try {
			List<List<Job>> claimedDuringRescue = new ArrayList<>();
			List<AttemptFailure> reaped = this.store.reapExpired(10, (job) -> {
				Future<List<Job>> claim = claimer.submit(() -> this.store.claim("remote:w", "default", EMAIL, 1));
				try {
					claimedDuringRescue.add(claim.get(20, TimeUnit.SECONDS));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				return timeout(job);
			});
			assertThat(reaped).extracting((failure) -> failure.job().id()).containsExactly(expired.get(0).id());
			assertThat(claimedDuringRescue).singleElement()
				.satisfies((claimed) -> assertThat(claimed).extracting(Job::id).containsExactly(due));
		}
		finally {
			claimer.shutdownNow();
		}
	}

	@Test
	void reaperFailsExpiredReservationsOnce() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = this.store.claim(NODE, "default", Map.of("email.send", Duration.ofSeconds(10)), 2);
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.store.heartbeat(NODE, List.of(claimed.get(1).id()), this.store.now().plusSeconds(10)))
			.isEqualTo(1);
		assertThat(this.store.reapExpired(10, this::timeout)).isEmpty();
		this.clock.advance(Duration.ofSeconds(6));
		List<AttemptFailure> reaped = this.store.reapExpired(10, this::timeout);
		assertThat(reaped).extracting((failure) -> failure.job().id()).containsExactly(claimed.get(0).id());
		assertThat(this.store.reapExpired(10, this::timeout)).as("second reaper").isEmpty();
		Job job = this.store.find(claimed.get(0).id()).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(job.lastError().type()).isEqualTo("visibility_timeout");
		// the stale owner's completion is rejected
		assertThat(this.store.complete(List.of(claimed.get(0)), false)).isEmpty();
		assertThat(this.store.find(claimed.get(1).id()).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
		// a heartbeat from another node extends nothing
		assertThat(this.store.heartbeat("node-b", List.of(claimed.get(1).id()), this.store.now().plusSeconds(60)))
			.isZero();
	}

	@Test
	void concurrentReapersCountEachExpiredAttemptOnce() throws Exception {
		this.store.insert(IntStream.range(0, 300).mapToObj((i) -> job("email.send").build()).toList());
		assertThat(this.store.claim("dead-node", "default", Map.of("email.send", Duration.ofSeconds(10)), 300))
			.hasSize(300);
		this.clock.advance(Duration.ofSeconds(11));
		int reapers = 4;
		ExecutorService pool = Executors.newFixedThreadPool(reapers);
		List<String> reaped = Collections.synchronizedList(new ArrayList<>());
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int n = 0; n < reapers; n++) {
				// each reaper is another node: its own store on the same table
				JdbcJobStore node = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
				futures.add(pool.submit(() -> {
					start.await();
					List<AttemptFailure> written;
					do {
						written = node.reapExpired(40, this::timeout);
						written.forEach((failure) -> reaped.add(failure.job().id()));
					}
					while (!written.isEmpty());
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(reaped).hasSize(300).doesNotHaveDuplicates();
		assertThat(this.store.countByQueueAndState()).containsEntry("default", Map.of(JobState.RETRYABLE, 300L));
	}

	@Test
	void releaseReturnsTheAttempt() {
		insertOne(job("email.send"));
		Job claimed = claim(1).get(0);
		assertThat(this.store.release(List.of(claimed))).containsExactly(claimed.id());
		Job released = this.store.find(claimed.id()).orElseThrow();
		assertThat(released.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(released.attempt()).isZero();
		assertThat(released.lockedBy()).isNull();
		assertThat(claim(1).get(0).attempt()).isEqualTo(1);
	}

	@Test
	void cancelEndsEveryLiveJobAtOnceCore76() {
		String scheduled = insertOne(job("email.send").runAt(this.clock.instant().plusSeconds(5)));
		String available = insertOne(job("email.send"));
		String retryable = available;
		Job first = claim(1).get(0);
		assertThat(this.store.fail(List.of(timeout(first)))).containsExactly(retryable);
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = claim(2);
		Job running = claimed.get(0);
		Job other = claimed.get(1);
		String waiting = insertOne(job("email.send"));

		assertThat(this.store.cancel(scheduled)).isTrue();
		assertThat(this.store.cancel(retryable)).isTrue();
		assertThat(this.store.cancel(waiting)).isTrue();
		assertThat(this.store.cancel(running.id())).isTrue();
		for (String id : List.of(scheduled, retryable, waiting, running.id())) {
			Job cancelled = this.store.find(id).orElseThrow();
			assertThat(cancelled.state()).as(id).isEqualTo(JobState.CANCELLED);
			assertThat(cancelled.discardedAt()).as(id).isEqualTo(this.clock.instant());
			assertThat(cancelled.lockedUntil()).as(id).isNull();
		}
		Job cancelled = this.store.find(running.id()).orElseThrow();
		assertThat(cancelled.attempt()).isOne();
		assertThat(cancelled.lockedBy()).isEqualTo(NODE);
		assertThat(claim(10)).isEmpty();
		// the worker learns of it, and its late writes are rejected (spec README 9)
		assertThat(this.store.cancelled(List.of(running, other))).containsExactly(running.id());
		assertThat(this.store.reservationsHeld(List.of(running))).isEmpty();
		assertThat(this.store.heartbeat(NODE, List.of(running.id()), this.clock.instant().plusSeconds(30))).isZero();
		assertThat(this.store.complete(List.of(running), false)).isEmpty();
		assertThat(this.store.complete(List.of(running), true)).isEmpty();
		assertThat(this.store.fail(List.of(timeout(running)))).isEmpty();
		this.clock.advance(Duration.ofHours(1));
		assertThat(this.store.reapExpired(10, this::timeout)).extracting((failure) -> failure.job().id())
			.containsExactly(other.id());
		assertThat(this.store.find(running.id()).orElseThrow()).usingRecursiveComparison().isEqualTo(cancelled);
	}

	/**
	 * Bulk cancel (Admin API §8) as single cancels do it, in one {@code UPDATE} per chunk of
	 * ids: live and pending jobs end cancelled, an active one keeps its owner and its later
	 * outcome is refused, ended and unknown jobs are left alone.
	 */
	@Test
	void cancelManyIsOneStatementPerChunkWithTheSingleCancelsEffect() {
		String scheduled = insertOne(job("email.send").runAt(this.clock.instant().plusSeconds(5)));
		insertOne(job("email.send"));
		Job running = claim(1).get(0);
		String done = insertOne(job("email.send"));
		assertThat(this.store.complete(List.of(claim(1).get(0)), false)).containsExactly(done);
		List<String> waiting = this.store.insert(IntStream.range(0, 1_100)
			.mapToObj((i) -> job("email.send").runAt(this.clock.instant().plusSeconds(60)).build())
			.toList());
		List<String> ids = new ArrayList<>(waiting);
		ids.addAll(List.of(scheduled, running.id(), done, "nope", "01890a5d-ac96-774b-bcce-b302099a8057"));
		List<String> updates = new java.util.concurrent.CopyOnWriteArrayList<>();
		javax.sql.DataSource counting = new dev.ojs.testsupport.InterceptingDataSource(this.schema.dataSource(),
				(call) -> {
					String sql = call.sql();
					if (sql != null && sql.startsWith("UPDATE")) {
						updates.add(sql);
					}
					return call.proceed();
				});
		JdbcJobStore store = new JdbcJobStore(counting, this.schema.settings(), this.clock);

		assertThat(store.cancel(ids)).isEqualTo(waiting.size() + 2);
		assertThat(updates).hasSize(3);
		for (String id : List.of(scheduled, running.id(), waiting.get(0), waiting.get(1_099))) {
			Job cancelled = this.store.find(id).orElseThrow();
			assertThat(cancelled.state()).as(id).isEqualTo(JobState.CANCELLED);
			assertThat(cancelled.discardedAt()).as(id).isEqualTo(this.clock.instant());
			assertThat(cancelled.lockedUntil()).as(id).isNull();
		}
		Job cancelled = this.store.find(running.id()).orElseThrow();
		assertThat(cancelled.lockedBy()).isEqualTo(NODE);
		assertThat(this.store.complete(List.of(running), false)).isEmpty();
		assertThat(this.store.find(done).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
		assertThat(store.cancel(ids)).isZero();
		assertThat(store.cancel(List.of())).isZero();
	}

	@Test
	void cancelOfAnEndedOrUnknownJobIsRefused() {
		insertOne(job("email.send"));
		Job done = claim(1).get(0);
		assertThat(this.store.complete(List.of(done), false)).containsExactly(done.id());
		String discarded = discardPlain(job("email.send"));
		String cancelled = insertOne(job("email.send"));
		assertThat(this.store.cancel(cancelled)).isTrue();

		assertThat(this.store.cancel(done.id())).isFalse();
		assertThat(this.store.cancel(discarded)).isFalse();
		assertThat(this.store.cancel(cancelled)).isFalse();
		assertThat(this.store.cancel("nope")).isFalse();
		assertThat(this.store.cancel("01890a5d-ac96-774b-bcce-b302099a8057")).isFalse();
		assertThat(this.store.find(done.id()).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.store.find(discarded).orElseThrow().state()).isEqualTo(JobState.DISCARDED);
	}

	@Test
	void pauseAndResumeAQueueThatNeverHeldAJobAdminApi63() {
		clearQueues();
		assertThat(this.store.queueStates()).isEmpty();
		assertThat(this.store.pausedQueues()).isEmpty();
		Instant pausedAt = this.clock.instant();
		QueueState paused = this.store.pauseQueue("mail");
		assertThat(paused).isEqualTo(new QueueState("mail", true, pausedAt));
		assertThat(this.store.pausedQueues()).containsExactly("mail");
		// pausing again keeps when it was paused
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(this.store.pauseQueue("mail")).isEqualTo(paused);
		// another store on the table (another node, or after a restart) sees the same
		JdbcJobStore other = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		assertThat(other.pausedQueues()).containsExactly("mail");
		assertThat(other.queueStates()).containsExactly(paused);

		assertThat(other.resumeQueue("mail")).isEqualTo(QueueState.active("mail"));
		assertThat(this.store.pausedQueues()).isEmpty();
		assertThat(this.store.resumeQueue("mail")).isEqualTo(QueueState.active("mail"));
		// resuming an unknown queue creates it too (spec README 20); names are case-sensitive
		assertThat(this.store.resumeQueue("fresh")).isEqualTo(QueueState.active("fresh"));
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(this.store.pauseQueue("Mail")).isEqualTo(new QueueState("Mail", true, this.clock.instant()));
		assertThat(this.store.queueStates()).extracting(QueueState::name).containsExactlyInAnyOrder("Mail", "fresh", "mail");
		assertThat(this.store.pausedQueues()).containsExactly("Mail");
		// paused again later: a new pausedAt
		assertThat(this.store.pauseQueue("mail").pausedAt()).isEqualTo(this.clock.instant());
		// enqueues into a paused queue succeed (ojs-admin-api.md §6.3)
		String id = insertOne(job("email.send").queue("mail"));
		assertThat(this.store.find(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
	}

	@Test
	void queueNamesAreValidated() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.pauseQueue(" "))
			.withMessageContaining("blank");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.resumeQueue(""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.pauseQueue("q".repeat(256)))
			.withMessageContaining("255");
		assertThat(this.store.pauseQueue("q".repeat(255)).paused()).isTrue();
	}

	@Test
	void deadLetterQueueOperations() {
		Instant t0 = this.clock.instant();
		String a = deadLetter(job("email.send").queue("mail"), "smtp.rejected");
		this.clock.advance(Duration.ofMinutes(1));
		String b = deadLetter(job("email.send").queue("mail"), "smtp.timeout");
		this.clock.advance(Duration.ofMinutes(1));
		String c = deadLetter(job("report.build").queue("reports"), "smtp.timeout");
		discardPlain(job("email.send").queue("mail"));

		assertThat(this.store.findDeadLetters(DeadLetterFilter.ALL, 0, 10)).extracting(Job::id).containsExactly(c, b, a);
		assertThat(this.store.findDeadLetters(DeadLetterFilter.ALL, 1, 1)).extracting(Job::id).containsExactly(b);
		assertThat(ids(new DeadLetterFilter("mail", null, null, null, null))).containsExactly(b, a);
		assertThat(ids(new DeadLetterFilter(null, "report.build", null, null, null))).containsExactly(c);
		assertThat(ids(new DeadLetterFilter(null, null, "smtp.timeout", null, null))).containsExactly(c, b);
		assertThat(ids(new DeadLetterFilter(null, null, null, t0.plusSeconds(30), t0.plusSeconds(90))))
			.containsExactly(b);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(3);
		assertThat(this.store.countDeadLetters(new DeadLetterFilter("mail", null, "smtp.timeout", null, null)))
			.isEqualTo(1);

		DeadLetterStats stats = this.store.deadLetterStats();
		assertThat(stats.total()).isEqualTo(3);
		assertThat(stats.byQueue()).isEqualTo(Map.of("mail", 2L, "reports", 1L));
		assertThat(stats.byErrorType()).isEqualTo(Map.of("smtp.rejected", 1L, "smtp.timeout", 2L));
		assertThat(stats.oldest()).isEqualTo(t0);
		assertThat(stats.newest()).isEqualTo(t0.plusSeconds(120));

		assertThat(this.store.retryDeadLetter(a)).isTrue();
		Job revived = this.store.find(a).orElseThrow();
		assertThat(revived.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(revived.attempt()).isZero();
		assertThat(revived.deadLetter()).isFalse();
		assertThat(revived.errors()).hasSize(1);
		assertThat(this.store.retryDeadLetter(a)).isFalse();

		assertThat(this.store.deleteDeadLetter(b)).isTrue();
		assertThat(this.store.deleteDeadLetter(b)).isFalse();
		assertThat(this.store.retryDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isZero();
		assertThat(this.store.deadLetterStats()).isEqualTo(new DeadLetterStats(0, Map.of(), Map.of(), null, null));
	}

	@Test
	void enqueuedAtMovesOnlyWhenADeadLetterIsRetried() {
		Instant t0 = this.store.now();
		String delayed = insertOne(job("email.send").runAt(t0.plusSeconds(60)));
		assertThat(this.store.find(delayed).orElseThrow().enqueuedAt()).isEqualTo(t0);
		String one = deadLetter(job("email.send"), "smtp.rejected");
		String bulk = deadLetter(job("email.send"), "smtp.rejected");
		Job dead = this.store.find(one).orElseThrow();
		assertThat(dead.createdAt()).isEqualTo(t0);
		assertThat(dead.enqueuedAt()).isEqualTo(t0);

		this.clock.advance(Duration.ofMinutes(5));
		Instant t1 = this.store.now();
		assertThat(this.store.retryDeadLetter(one)).isTrue();
		Job replayed = this.store.find(one).orElseThrow();
		assertThat(replayed.createdAt()).isEqualTo(t0);
		assertThat(replayed.enqueuedAt()).isEqualTo(t1);
		assertThat(this.store.find(bulk).orElseThrow().enqueuedAt()).isEqualTo(t0);
		Job claimed = claim(10).stream().filter((job) -> job.id().equals(one)).findFirst().orElseThrow();
		assertThat(claimed.createdAt()).isEqualTo(t0);
		assertThat(claimed.enqueuedAt()).isEqualTo(t1);

		this.clock.advance(Duration.ofMinutes(5).plusNanos(1234));
		Instant t2 = this.store.now();
		assertThat(this.store.retryDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
		Job bulkReplayed = this.store.find(bulk).orElseThrow();
		assertThat(bulkReplayed.createdAt()).isEqualTo(t0);
		assertThat(bulkReplayed.enqueuedAt()).isEqualTo(t2).isAfter(t1);
		assertThat(this.store.find(one).orElseThrow().enqueuedAt()).isEqualTo(t1);
		assertThat(this.store.find(delayed).orElseThrow().enqueuedAt()).isEqualTo(t0);
	}

	@Test
	void deadLetterWithALiveDuplicateKeyStaysDead() {
		String dead = deadLetter(job("email.send").uniqueKey("k1"), "x.failed");
		String dead2 = deadLetter(job("email.send").uniqueKey("k2"), "x.failed");
		String dead3 = deadLetter(job("email.send").uniqueKey("k2"), "x.failed");
		String live = insertOne(job("email.send").uniqueKey("k1"));
		assertThat(live).isNotEqualTo(dead);
		assertThat(this.store.retryDeadLetter(dead)).isFalse();
		// of two dead letters sharing a key only one comes back
		assertThat(this.store.retryDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
		assertThat(List.of(dead2, dead3)).filteredOn((id) -> this.store.find(id).orElseThrow().deadLetter()).hasSize(1);
	}

	@Test
	void pruneByRetention() {
		Instant t0 = this.clock.instant();
		insertOne(job("email.send"));
		this.store.complete(claim(1), false);
		discardPlain(job("email.send"));
		for (int i = 0; i < 5; i++) {
			deadLetter(job("email.send"), "x.failed");
			this.clock.advance(Duration.ofMinutes(1));
		}
		String live = insertOne(job("email.send"));
		this.clock.set(t0.plus(Duration.ofMinutes(30)));
		// completed kept 1 h, discarded 10 min, dead letters 182 min / at most 3
		long deleted = this.store.prune(retention(Duration.ofHours(1), Duration.ofMinutes(10), Duration.ofMinutes(182), 3), Duration.ofDays(1));
		assertThat(deleted).isEqualTo(1 + 2);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(3);
		this.clock.set(t0.plus(Duration.ofMinutes(61)));
		assertThat(this.store.prune(retention(Duration.ofHours(1), Duration.ofMinutes(10), Duration.ofMinutes(57), 3), Duration.ofDays(1)))
			.as("completed and two dead letters by age").isEqualTo(3);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
		assertThat(this.store.find(live)).isPresent();
		assertThat(total()).isEqualTo(2);
	}

	@Test
	void enqueueJoinsTheCallersTransaction() {
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
		String rolledBack = tx.execute((status) -> {
			String id = insertOne(job("email.send"));
			assertThat(this.store.find(id)).as("visible inside the transaction").isPresent();
			status.setRollbackOnly();
			return id;
		});
		assertThat(this.store.find(rolledBack)).isEmpty();
		String committed = tx.execute((status) -> insertOne(job("email.send")));
		assertThat(this.store.find(committed)).isPresent();
		assertThat(total()).isEqualTo(1);
	}

	@Test
	void schemaCreationIsIdempotent() {
		String kept = insertOne(job("email.send"));
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		assertThat(this.store.find(kept)).as("existing jobs are kept").isPresent();
		assertThat(total()).isEqualTo(1);
		assertThat(JdbcPlatform.detect(this.schema.dataSource())).isEqualTo(this.store.platform());
		this.store.checkAvailable();
		JdbcJobStore missing = new JdbcJobStore(this.schema.dataSource(), new JdbcStoreSettings("missing_"));
		org.assertj.core.api.Assertions.assertThatException().isThrownBy(missing::checkAvailable);
	}

	@Test
	void prefixIsValidated() {
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcStoreSettings("ojs; DROP TABLE x"));
	}

	@Test
	void insertWithoutACallersTransactionIsAllOrNothing() {
		RejectingDataSource rejecting = new RejectingDataSource(this.schema.dataSource(), "POISON");
		JdbcJobStore rejectingStore = new JdbcJobStore(rejecting, this.schema.settings(), this.clock);
		assertThatException().isThrownBy(() -> rejectingStore.insert(List.of(job("email.send").uniqueKey("k1").build(),
				job("email.send").args("[\"POISON\"]").build())));
		assertThat(rejecting.rejected()).isEqualTo(1);
		assertThat(total()).isZero();
		String again = insertOne(job("email.send").uniqueKey("k1"));
		assertThat(this.store.find(again)).isPresent();
		assertThat(total()).isEqualTo(1);
	}

	@Test
	void namesAndRunAtAreValidatedAtEnqueue() {
		String name = "n".repeat(255);
		String id = insertOne(job(name).queue(name).uniqueKey(name).runAt(Timestamps.MAX));
		Job stored = this.store.find(id).orElseThrow();
		assertThat(stored.type()).isEqualTo(name);
		assertThat(stored.queue()).isEqualTo(name);
		assertThat(stored.uniqueKey()).isEqualTo(name);
		assertThat(stored.scheduledAt()).isEqualTo(Timestamps.MAX);
		String tooLong = "x".repeat(256);
		assertThatIllegalArgumentException().isThrownBy(() -> insertOne(job(tooLong)))
			.withMessageContaining("type must have at most 255 characters");
		assertThatIllegalArgumentException().isThrownBy(() -> insertOne(job("email.send").queue(tooLong)))
			.withMessageContaining("queue must have at most 255 characters");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.store.insert(List.of(job("email.send").build(),
					job("email.send").uniqueKey(tooLong).build())))
			.withMessageContaining("unique key must have at most 255 characters");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> insertOne(job("email.send").runAt(Timestamps.MAX.plusSeconds(1))))
			.withMessageContaining("runAt must not be after 9999-12-31T23:59:59Z");
		assertThat(total()).isEqualTo(1);
	}

	@Test
	void failuresAreCutToTheColumnsAndStoredUpToTheLatestTime() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = claim(2);
		Instant now = this.store.now();
		ErrorEntry oversized = new ErrorEntry(1, "t\u0000".repeat(200), "m".repeat(100_000), ErrorCode.RETRY, now,
				Map.of("blob", "d".repeat(100_000), "nul", "\u0000"));
		ErrorEntry nul = new ErrorEntry(1, "x.nul", "before\u0000after", ErrorCode.RETRY, now, Map.of("nul", "\u0000"));
		assertThat(this.store.fail(List.of(
				new AttemptFailure(claimed.get(0), JobState.RETRYABLE, Timestamps.MAX, List.of(oversized), false, now),
				new AttemptFailure(claimed.get(1), JobState.DISCARDED, null, List.of(nul), true, now))))
			.hasSize(2);
		Job retrying = this.store.find(claimed.get(0).id()).orElseThrow();
		assertThat(retrying.nextRetryAt()).isEqualTo(Timestamps.MAX);
		assertThat(retrying.lastError().type()).hasSize(255).startsWith("t\uFFFDt\uFFFD");
		assertThat(retrying.lastError().message()).hasSizeLessThanOrEqualTo(2000).endsWith("(100000 characters)");
		assertThat(retrying.lastError().details()).containsOnlyKeys("truncated");
		assertThat(this.store.findDeadLetters(DeadLetterFilter.ALL, 0, 10)).singleElement().satisfies((job) -> {
			assertThat(job.lastError().message()).isEqualTo("before\uFFFDafter");
			assertThat(job.lastError().details()).containsOnlyKeys("truncated");
		});
		assertThat(this.store.deadLetterStats().byErrorType()).containsOnlyKeys("x.nul");
	}

	/**
	 * JSON {@code null} is a valid detail value: written, read back and claimed again
	 * (a row whose history could not be read would be claimed and then lost to the worker).
	 */
	@Test
	void errorDetailsWithNullValuesRoundTrip() {
		String id = insertOne(job("email.send"));
		Job claimed = claim(1).get(0);
		Instant now = this.store.now();
		Map<String, Object> details = new java.util.LinkedHashMap<>();
		details.put("response", null);
		details.put("missing", java.util.Optional.empty());
		details.put("status", 503);
		ErrorEntry error = new ErrorEntry(1, "external.unavailable", "503", ErrorCode.RETRY, now, details);
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, now, List.of(error), false,
				now)))).containsExactly(id);
		assertThat(this.store.find(id).orElseThrow().lastError().details()).containsEntry("response", null)
			.containsEntry("missing", null)
			.containsEntry("status", 503);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(claim(1)).singleElement()
			.satisfies((job) -> assertThat(job.errors()).singleElement()
				.satisfies((entry) -> assertThat(entry.details()).containsEntry("response", null)));
	}

	/**
	 * A claim hands out the stored history undecoded (only a failing attempt needs it); it
	 * decodes to what was written when read.
	 */
	@Test
	void claimedHistoryIsDecodedOnFirstRead() {
		String id = insertOne(job("email.send"));
		Job first = claim(1).get(0);
		assertThat(first.errors()).isEmpty();
		Instant now = this.store.now();
		ErrorEntry error = new ErrorEntry(1, "external.unavailable", "503", ErrorCode.RETRY, now, Map.of("status", 503));
		this.store.fail(List.of(new AttemptFailure(first, JobState.RETRYABLE, now, List.of(error), false, now)));
		this.clock.advance(Duration.ofSeconds(1));
		Job second = claim(1).get(0);
		assertThat(second.id()).isEqualTo(id);
		assertThat(second.errors()).isInstanceOfSatisfying(LazyErrorHistory.class,
				(history) -> assertThat(history.isDecoded()).isFalse());
		assertThat(second.errors()).containsExactly(error);
		assertThat(((LazyErrorHistory) second.errors()).isDecoded()).isTrue();
		assertThat(second.lastError()).isEqualTo(error);
	}

	/**
	 * The histories of one claim's jobs are read together (an HTTP fetch answers every job's,
	 * ojs-http-binding §10.1): none is read by the claim, the first used reads all of them in
	 * one statement, and each job gets its own, retried jobs theirs and first attempts none.
	 * Jobs found for outcomes by id are read the same way.
	 */
	@Test
	void claimedHistoriesAreReadTogetherWhenFirstUsed() {
		insertOne(job("email.send"));
		insertOne(job("email.send"));
		Instant now = this.store.now();
		Map<String, ErrorEntry> failed = new LinkedHashMap<>();
		for (Job job : claim(2)) {
			ErrorEntry error = error(1, "x.failed_" + failed.size(), now);
			this.store.fail(List.of(new AttemptFailure(job, JobState.RETRYABLE, now, List.of(error), false, now)));
			failed.put(job.id(), error);
		}
		Set<String> fresh = Set.of(insertOne(job("email.send")), insertOne(job("email.send")),
				insertOne(job("email.send")));
		this.clock.advance(Duration.ofSeconds(1));
		List<String> historyReads = new java.util.concurrent.CopyOnWriteArrayList<>();
		String historySelect = "SELECT job_id, error FROM " + this.schema.settings().errorsTableName();
		JdbcJobStore counting = new JdbcJobStore(new dev.ojs.testsupport.InterceptingDataSource(
				this.schema.dataSource(), (call) -> {
					if (call.sql() != null && call.sql().startsWith(historySelect)) {
						historyReads.add(call.sql());
					}
					return call.proceed();
				}), this.schema.settings(), this.clock);

		List<Job> claimed = counting.claim(NODE, "default", EMAIL, 10);
		assertThat(claimed).extracting(Job::id).containsExactlyInAnyOrderElementsOf(
				java.util.stream.Stream.concat(failed.keySet().stream(), fresh.stream()).toList());
		assertThat(historyReads).as("history reads of the claim").isEmpty();
		for (Job job : claimed) {
			if (fresh.contains(job.id())) {
				assertThat(job.attempt()).isEqualTo(1);
				assertThat(job.errors()).as(job.id()).isEmpty();
			}
			else {
				assertThat(job.attempt()).isEqualTo(2);
				assertThat(job.errors()).as(job.id()).containsExactly(failed.get(job.id()));
			}
		}
		assertThat(historyReads).as("history reads of the claimed jobs").hasSize(1);

		List<String> ids = claimed.stream().map(Job::id).toList();
		List<Job> found = counting.findAll(ids);
		assertThat(historyReads).as("history reads of the jobs found").hasSize(1);
		found.forEach((job) -> assertThat(job.errors()).as(job.id())
			.isEqualTo(failed.containsKey(job.id()) ? List.of(failed.get(job.id())) : List.of()));
		assertThat(historyReads).as("history reads of the jobs found, used").hasSize(2);
	}

	/**
	 * A job's effective policy is stored as the fields that differ from the spec default, and
	 * read back whole; a policy stored whole (by an earlier version) reads the same.
	 */
	@Test
	void onlyTheJobsOwnRetryPolicyFieldsAreStored() {
		RetryPolicy own = RetryPolicy.builder().maxAttempts(7).jitter(false).onExhaustion(OnExhaustion.DEAD_LETTER).build();
		String custom = insertOne(job("email.send").policy(own));
		String byHandler = insertOne(job("email.send"));
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String select = "SELECT retry_policy FROM " + this.schema.tableName() + " WHERE id = "
				+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::uuid" : "?");
		assertThat(RetryPolicy.parsePartial(jdbc.queryForObject(select, String.class, custom))).isEqualTo(own);
		assertThat(jdbc.queryForObject(select, String.class, byHandler).replace(" ", "")).isEqualTo("{}");
		assertThat(this.store.find(custom).orElseThrow().retryPolicy()).isEqualTo(own);
		assertThat(this.store.find(custom).orElseThrow().maxAttempts()).isEqualTo(7);
		assertThat(this.store.find(byHandler).orElseThrow().retryPolicy().isEmpty()).isTrue();
		// a whole policy stored by an earlier version reads as the job's own fields
		RetryPolicy whole = own.effective();
		jdbc.update("UPDATE " + this.schema.tableName() + " SET retry_policy = "
				+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::jsonb" : "?") + " WHERE id = "
				+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::uuid" : "?"), whole.toJson(), custom);
		assertThat(claim(2)).extracting(Job::retryPolicy)
			.containsExactlyInAnyOrder(whole, RetryPolicy.builder().build());
	}

	@Test
	void publishedHandlersAreUpsertedByType() {
		RetryPolicy application = RetryPolicy.builder().maxAttempts(4).build();
		RetryPolicy handler = RetryPolicy.builder().onExhaustion(OnExhaustion.DEAD_LETTER).build();
		Instant now = this.store.now();
		this.store.publishHandlers(List.of(new PublishedHandler("b.type", "mail", 5, application, handler, "svc", "node-1",
				now), new PublishedHandler("a.type", "default", 0, RetryPolicy.builder().build(),
						RetryPolicy.builder().build(), null, "node-1", now)));
		assertThat(this.store.publishedHandlers()).extracting(PublishedHandler::type).containsExactly("a.type", "b.type");
		assertThat(this.store.findPublishedHandler("b.type")).hasValue(
				new PublishedHandler("b.type", "mail", 5, application, handler, "svc", "node-1", now));
		this.clock.advance(Duration.ofMinutes(1));
		this.store.publishHandlers(List.of(new PublishedHandler("b.type", "other", 1, RetryPolicy.builder().build(),
				handler, "svc-2", "node-2", this.store.now())));
		PublishedHandler replaced = this.store.findPublishedHandler("b.type").orElseThrow();
		assertThat(replaced.queue()).isEqualTo("other");
		assertThat(replaced.nodeId()).isEqualTo("node-2");
		assertThat(replaced.applicationPolicy().isEmpty()).isTrue();
		assertThat(this.store.publishedHandlers()).hasSize(2);
		assertThat(this.store.findPublishedHandler("c.type")).isEmpty();
	}

	/** Only a discarded job stores its last error type (the dead letter filters' column). */
	@Test
	void lastErrorTypeIsStoredForDiscardedJobsOnly() {
		String id = insertOne(job("email.send"));
		Job claimed = claim(1).get(0);
		Instant now = this.store.now();
		ErrorEntry first = new ErrorEntry(1, "smtp.timeout", "slow", ErrorCode.RETRY, now, Map.of());
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, now, List.of(first), false,
				now)))).containsExactly(id);
		String select = "SELECT last_error_type FROM " + this.schema.tableName() + " WHERE id = "
				+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::uuid" : "?");
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		assertThat(jdbc.queryForObject(select, String.class, id)).isNull();
		Job again = claim(1).get(0);
		ErrorEntry second = new ErrorEntry(2, "smtp.rejected", "no", ErrorCode.DEAD_LETTER, now, Map.of());
		assertThat(this.store.fail(List.of(new AttemptFailure(again, JobState.DISCARDED, null, List.of(first, second),
				true, now)))).containsExactly(id);
		assertThat(jdbc.queryForObject(select, String.class, id)).isEqualTo("smtp.rejected");
		assertThat(this.store.deadLetterStats().byErrorType()).containsExactly(Map.entry("smtp.rejected", 1L));
		// a dead letter retried is live again: the column goes with the dead letter
		assertThat(this.store.retryDeadLetter(id)).isTrue();
		assertThat(jdbc.queryForObject(select, String.class, id)).isNull();
	}

	/**
	 * Spec §10.1, RET-14: each failure appends one row to the errors table. The job's row keeps
	 * no history, so the versions of it that later claims and outcomes write copy none, and
	 * recording a failure does not read the history before it.
	 */
	@Test
	void errorHistoryIsAppendedToItsOwnTable() {
		String id = insertOne(job("email.send"));
		Job first = claim(1).get(0);
		Instant now = this.store.now();
		ErrorEntry one = new ErrorEntry(1, "x.failed", "one", ErrorCode.RETRY, now, Map.of("status", 503));
		assertThat(this.store.fail(List.of(new AttemptFailure(first, JobState.RETRYABLE, now,
				LazyErrorHistory.appended(first.errors(), one, 20), false, now)))).containsExactly(id);
		assertThat(((LazyErrorHistory) first.errors()).isDecoded()).as("history read by the failure").isFalse();
		// a late write of the same attempt is refused by the guard, and appends nothing
		assertThat(this.store.fail(List.of(new AttemptFailure(first, JobState.RETRYABLE, now,
				List.of(one), false, now)))).isEmpty();
		assertThat(errorRows(id)).isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(1));
		Job second = claim(1).get(0);
		Instant later = this.store.now();
		ErrorEntry two = new ErrorEntry(2, "y.failed", "two", ErrorCode.DEAD_LETTER, later, Map.of());
		assertThat(this.store.fail(List.of(new AttemptFailure(second, JobState.DISCARDED, null,
				LazyErrorHistory.appended(second.errors(), two, 20), true, later)))).containsExactly(id);
		assertThat(((LazyErrorHistory) second.errors()).isDecoded()).as("history read by the failure").isFalse();
		assertThat(jdbc().queryForObject("SELECT errors FROM " + this.schema.tableName() + " WHERE id = " + idParam(),
				String.class, id)).isEqualTo("[]");
		assertThat(errorRows(id)).isEqualTo(2);
		Job stored = this.store.find(id).orElseThrow();
		assertThat(stored.errors()).containsExactly(one, two);
		assertThat(stored.lastError()).isEqualTo(two);
	}

	/**
	 * A job stored before the errors table keeps the entries of its {@code errors} column:
	 * they come first, then those its later failures append.
	 */
	@Test
	void historyInTheJobRowIsReadBeforeTheErrorsTable() {
		String id = insertOne(job("email.send"));
		Instant at = Instant.parse("2026-01-02T03:04:05Z");
		ErrorEntry old = new ErrorEntry(1, "x.failed", "old", ErrorCode.RETRY, at, Map.of());
		jdbc().update("UPDATE " + this.schema.tableName() + " SET attempt = 1, errors = " + jsonParam() + " WHERE id = "
				+ idParam(), "[" + ErrorHistoryJson.writeEntry(old) + "]", id);
		Job claimed = claim(1).get(0);
		Instant now = this.store.now();
		ErrorEntry next = new ErrorEntry(2, "x.failed", "next", ErrorCode.RETRY, now, Map.of());
		this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, now,
				LazyErrorHistory.appended(claimed.errors(), next, 20), false, now)));
		assertThat(this.store.find(id).orElseThrow().errors()).containsExactly(old, next);
	}

	/**
	 * Every way a job is deleted takes its error history with it: a completion that deletes,
	 * deleting a dead letter, and pruning.
	 */
	@Test
	void deletingAJobDeletesItsErrorHistory() {
		List<String> ids = IntStream.range(0, 4).mapToObj((i) -> insertOne(job("email.send"))).toList();
		Instant now = this.store.now();
		List<Job> claimed = claim(4);
		this.store.fail(claimed.stream().map((job) -> new AttemptFailure(job, JobState.RETRYABLE, now,
				List.of(new ErrorEntry(1, "x.failed", "boom", ErrorCode.RETRY, now, Map.of())), false, now)).toList());
		ids.forEach((id) -> assertThat(errorRows(id)).isEqualTo(1));
		this.clock.advance(Duration.ofSeconds(1));
		Map<String, Job> again = new LinkedHashMap<>();
		claim(4).forEach((job) -> again.put(job.id(), job));
		Instant later = this.store.now();
		// 0: completed and deleted at once; 1: a dead letter, deleted; 2: completed, then pruned; 3: kept
		assertThat(this.store.complete(List.of(again.get(ids.get(0))), true)).containsExactly(ids.get(0));
		this.store.fail(List.of(new AttemptFailure(again.get(ids.get(1)), JobState.DISCARDED, null,
				List.of(new ErrorEntry(2, "x.failed", "boom", ErrorCode.DEAD_LETTER, later, Map.of())), true, later)));
		assertThat(this.store.deleteDeadLetter(ids.get(1))).isTrue();
		assertThat(this.store.complete(List.of(again.get(ids.get(2))), false)).containsExactly(ids.get(2));
		this.clock.advance(Duration.ofDays(2));
		assertThat(this.store.complete(List.of(again.get(ids.get(3))), false)).containsExactly(ids.get(3));
		assertThat(this.store.prune(new RetentionSettings(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(7),
				1000, Duration.ofMinutes(1)), Duration.ofSeconds(10))).isPositive();
		assertThat(this.store.find(ids.get(2))).as("pruned").isEmpty();
		assertThat(ids.stream().map(this::errorRows).toList()).containsExactly(0, 0, 0, 1);
		assertThat(this.store.find(ids.get(3)).orElseThrow().errors()).hasSize(1);
	}

	/** Spec README decision 28, L0-OPS-010: results are stored with the completion apart from the job row, and pruned with it. */
	@Test
	void resultsAreStoredWithTheCompletionAndPrunedWithTheJob() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = claim(2);
		String withResult = claimed.get(0).id();
		String without = claimed.get(1).id();
		assertThat(this.store.complete(claimed, Map.of(withResult, "{\"sent\": 2}"), false))
			.containsExactlyInAnyOrder(withResult, without);
		assertThat(this.store.result(withResult)).hasValue("{\"sent\": 2}");
		assertThat(this.store.result(without)).isEmpty();
		assertThat(this.store.complete(List.of(claimed.get(0)), Map.of(withResult, "{}"), false))
			.as("late completion").isEmpty();
		assertThat(this.store.result(withResult)).hasValue("{\"sent\": 2}");
		this.clock.advance(Duration.ofDays(2));
		assertThat(this.store.prune(new RetentionSettings(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(7),
				1000, Duration.ofMinutes(1)), Duration.ofSeconds(10))).isPositive();
		assertThat(this.store.find(withResult)).isEmpty();
		assertThat(this.store.result(withResult)).isEmpty();
		Integer rows = jdbc().queryForObject("SELECT count(*) FROM " + this.schema.settings().resultsTableName(),
				Integer.class);
		assertThat(rows).isZero();
	}

	private JdbcTemplate jdbc() {
		return new JdbcTemplate(this.schema.dataSource());
	}

	private int errorRows(String id) {
		Integer rows = jdbc().queryForObject("SELECT count(*) FROM " + this.schema.settings().errorsTableName()
				+ " WHERE job_id = " + idParam(), Integer.class, id);
		return (rows != null) ? rows : 0;
	}

	private String idParam() {
		return (kind() == TestDatabases.Kind.POSTGRESQL) ? "?::uuid" : "?";
	}

	private String jsonParam() {
		return (kind() == TestDatabases.Kind.POSTGRESQL) ? "?::jsonb" : "?";
	}

	/**
	 * A history that is valid JSON but not a history (only a manual edit stores one) does not
	 * stop the job: it is claimed, reads as empty and its next failure starts a new history.
	 */
	@Test
	void unreadableHistoryReadsAsEmpty() {
		String id = insertOne(job("email.send"));
		new JdbcTemplate(this.schema.dataSource())
			.update("UPDATE " + this.schema.tableName() + " SET errors = "
					+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::jsonb" : "?") + " WHERE id = "
					+ ((kind() == TestDatabases.Kind.POSTGRESQL) ? "?::uuid" : "?"), "[{\"attempt\": \"first\"}]", id);
		Job claimed = claim(1).get(0);
		assertThat(claimed.id()).isEqualTo(id);
		assertThat(claimed.errors()).isEmpty();
		Instant now = this.store.now();
		ErrorEntry error = new ErrorEntry(1, "x.failed", "boom", ErrorCode.RETRY, now, Map.of());
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, now, List.of(error), false,
				now)))).containsExactly(id);
		assertThat(this.store.find(id).orElseThrow().errors()).containsExactly(error);
	}

	@Test
	void concurrentCountPrunesKeepExactlyTheNewestDeadLetters() throws Exception {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			ids.add(deadLetter(job("email.send"), "x.failed"));
			if (i % 3 == 0) {
				// several dead letters share a discarded_at: the id breaks the tie
				this.clock.advance(Duration.ofSeconds(1));
			}
		}
		List<String> newest = this.store.findDeadLetters(DeadLetterFilter.ALL, 0, 10).stream().map(Job::id).toList();
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			for (int round = 0; round < 3; round++) {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<Long>> prunes = new ArrayList<>();
				for (int n = 0; n < 4; n++) {
					prunes.add(pool.submit(() -> {
						start.await();
						return this.store.prune(retention(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(1), 10), Duration.ofDays(1));
					}));
				}
				start.countDown();
				long deleted = 0;
				for (Future<Long> prune : prunes) {
					deleted += prune.get(60, TimeUnit.SECONDS);
				}
				assertThat(deleted).isEqualTo((round == 0) ? 30 : 0);
				assertThat(ids(DeadLetterFilter.ALL)).containsExactlyElementsOf(newest);
			}
		}
		finally {
			pool.shutdown();
		}
		assertThat(this.store.prune(retention(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(1), 0), Duration.ofDays(1))).isEqualTo(10);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isZero();
	}

	@Test
	void pruneStopsWhenItsBudgetIsSpent() {
		insertOne(job("email.send"));
		this.store.complete(claim(1), false);
		this.clock.advance(Duration.ofHours(2));
		assertThat(this.store.prune(retention(Duration.ofHours(1), Duration.ofDays(1), Duration.ofDays(1), 10), Duration.ZERO))
			.isZero();
		assertThat(this.store.prune(retention(Duration.ofHours(1), Duration.ofDays(1), Duration.ofDays(1), 10), Duration.ofSeconds(1)))
			.isEqualTo(1);
		// retentions longer than the stored range prune nothing rather than fail
		assertThat(this.store.prune(retention(Duration.ofDays(365L * 100_000), Duration.ofDays(365L * 100_000),
				Duration.ofDays(365L * 100_000), 10), Duration.ofDays(1)))
			.isZero();
	}

	@Test
	void reservationsHeldAreTheUnreapedAttempts() {
		this.store.insert(List.of(job("email.send").build(), job("email.send").build()));
		List<Job> claimed = this.store.claim(NODE, "default", Map.of("email.send", Duration.ofSeconds(10)), 2);
		assertThat(this.store.reservationsHeld(claimed)).containsExactlyInAnyOrderElementsOf(claimed);
		this.clock.advance(Duration.ofSeconds(11));
		this.store.reapExpired(1, this::timeout);
		assertThat(this.store.reservationsHeld(claimed)).hasSize(1);
		assertThat(this.store.reservationsHeld(List.of(StoredJobs.from(claimed.get(0)).attempt(2).build(),
				StoredJobs.from(claimed.get(1)).lockedBy("x").build())))
			.isEmpty();
	}

	// ---- helpers

	/**
	 * The store's own inserts reach its insert callbacks as they commit, in the committing
	 * thread, on every platform: none before the commit, none for a rollback, none once the
	 * listener is closed. (On PostgreSQL the notifications of the database come as well.)
	 */
	@Test
	void ownInsertsAreToldToInsertListenersAsTheyCommit() throws Exception {
		Set<String> told = ConcurrentHashMap.newKeySet();
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
		try (AutoCloseable listening = this.store.listenForInserts((queue) -> told.add(String.valueOf(queue)))
			.orElseThrow()) {
			tx.executeWithoutResult((status) -> {
				insertOne(job("email.send").queue("rolled-back"));
				status.setRollbackOnly();
			});
			tx.executeWithoutResult((status) -> {
				this.store.insert(List.of(job("email.send").queue("mail").build(), job("sms.send").queue("sms").build()));
				assertThat(told).as("before the commit").doesNotContain("mail", "sms");
			});
			assertThat(told).as("once committed").contains("mail", "sms");
			insertOne(job("email.send").queue("own-transaction"));
			assertThat(told).contains("own-transaction");
			String held = insertOne(job("email.send").queue("held").pending());
			assertThat(told).as("a held job wakes no one until activated").doesNotContain("held");
			assertThat(this.store.activate(held)).isTrue();
			assertThat(told).contains("held");
		}
		insertOne(job("email.send").queue("closed"));
		assertThat(told).doesNotContain("rolled-back", "closed");
	}

	String insertOne(dev.ojs.testsupport.Jobs job) {
		return this.store.insert(List.of(job.build())).get(0);
	}

	List<Job> claim(int limit) {
		return this.store.claim(NODE, "default", EMAIL, limit);
	}

	private void clearQueues() {
		new JdbcTemplate(this.schema.dataSource()).update("DELETE FROM " + this.schema.settings().queuesTableName());
	}

	private static <T> T get(Future<T> future) {
		try {
			return future.get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private long total() {
		return this.store.countByQueueAndState()
			.values()
			.stream()
			.flatMap((states) -> states.values().stream())
			.mapToLong(Long::longValue)
			.sum();
	}

	private static RetentionSettings retention(Duration completed, Duration discarded, Duration deadLetterMaxAge,
			int deadLetterMaxCount) {
		return new RetentionSettings(completed, discarded, deadLetterMaxAge, deadLetterMaxCount, Duration.ofMinutes(1));
	}

	private List<String> ids(DeadLetterFilter filter) {
		return this.store.findDeadLetters(filter, 0, 100).stream().map(Job::id).toList();
	}

	private String deadLetter(dev.ojs.testsupport.Jobs job, String errorType) {
		return failOnce(job, errorType, true);
	}

	private String discardPlain(dev.ojs.testsupport.Jobs job) {
		return failOnce(job, "x.discarded", false);
	}

	private String failOnce(dev.ojs.testsupport.Jobs builder, String errorType, boolean deadLetter) {
		NewJob newJob = builder.build();
		String id = this.store.insert(List.of(newJob)).get(0);
		Job claimed = this.store.claim(NODE, newJob.queue(), Map.of(newJob.type(), Duration.ofSeconds(30)), 100)
			.stream()
			.filter((job) -> job.id().equals(id))
			.findFirst()
			.orElseThrow();
		Instant now = this.store.now();
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.DISCARDED, null,
				List.of(error(1, errorType, now)), deadLetter, now)))).containsExactly(id);
		return id;
	}

	private AttemptFailure timeout(Job job) {
		Instant now = this.store.now();
		return new AttemptFailure(job, JobState.RETRYABLE, now.plusSeconds(1),
				List.of(error(job.attempt(), "visibility_timeout", now)), false, now);
	}

	private static ErrorEntry error(int attempt, String type, Instant at) {
		return new ErrorEntry(attempt, type, "failed: " + type, ErrorCode.RETRY, at, Map.of("k", "v"));
	}

}
