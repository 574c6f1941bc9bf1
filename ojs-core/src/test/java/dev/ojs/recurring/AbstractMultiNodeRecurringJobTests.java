package dev.ojs.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.testsupport.ForwardingRecurringJobStore;
import dev.ojs.jdbc.JdbcRecurringJobStore;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.NewJob;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exactly one job per occurrence across a cluster (ojs-cron.md §7, CRON-21/22/23): four nodes, each
 * with its own store and node id, evaluate concurrently through 30 minutes of occurrences of ten
 * recurring jobs on a controllable clock. Along the way a fifth node ignores the lease (a leader
 * that missed its lease's expiry), the lease holder dies right after an occurrence committed, and
 * the next holder dies inside an occurrence's transaction, after the compare-and-set. Every
 * recurring job still has exactly one job per occurrence, and none is missed while a node lives.
 * Subclasses choose the database.
 */
abstract class AbstractMultiNodeRecurringJobTests extends DatabaseTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:30Z");

	private static final int SCHEDULES = 10;

	private static final int MINUTES = 30;

	private final MutableClock clock = new MutableClock(START);

	@Test
	void everyOccurrenceOfEveryRecurringJobHasExactlyOneJob() throws Exception {
		JdbcJobStore jobs = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		RecurringJobs recurringJobs = new RecurringJobs(new JdbcRecurringJobStore(jobs), RecurringJobFixtures.JOBS,
				"app");
		for (int i = 0; i < SCHEDULES; i++) {
			recurringJobs.register(RecurringJobFixtures.definition("s" + i, "* * * * *"));
		}
		List<Node> nodes = new ArrayList<>();
		for (int i = 1; i <= 4; i++) {
			nodes.add(new Node("node-" + i, false));
		}
		Node zombie = new Node("zombie", true);
		ExecutorService threads = Executors.newFixedThreadPool(5);
		try {
			for (int minute = 1; minute <= MINUTES; minute++) {
				this.clock.set(START.plus(Duration.ofSeconds(minute * 60L - 30)));
				if (minute == 10) {
					leader(nodes).dieAfterNextOccurrence.set(true);
				}
				if (minute == 20) {
					leader(nodes).dieInsideNextOccurrence.set(true);
				}
				List<Node> evaluating = new ArrayList<>(nodes);
				if (minute < 10) {
					evaluating.add(zombie);
				}
				List<CompletableFuture<Void>> runs = evaluating.stream()
					.map((node) -> CompletableFuture.runAsync(node::evaluate, threads))
					.toList();
				CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
				// a dead holder's lease expires on the database clock: wait for a successor before the next occurrence
				await().atMost(Duration.ofSeconds(15)).until(() -> {
					nodes.stream().filter(Node::alive).forEach(Node::evaluate);
					return nodes.stream().anyMatch((node) -> node.alive() && node.evaluator.isLeader());
				});
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(nodes).filteredOn((node) -> !node.alive()).hasSize(2);
		Map<String, Integer> jobsPerKey = new HashMap<>();
		new JdbcTemplate(this.schema.dataSource())
			.query("SELECT unique_key, count(*) FROM " + this.schema.tableName() + " GROUP BY unique_key",
					(rs) -> {
						jobsPerKey.put(rs.getString(1), rs.getInt(2));
					});
		Map<String, Integer> expected = new HashMap<>();
		for (int i = 0; i < SCHEDULES; i++) {
			for (int minute = 1; minute <= MINUTES; minute++) {
				expected.put(String.format("cron:s%d:2026-01-01T00:%02d:00", i, minute), 1);
			}
		}
		assertThat(jobsPerKey).isEqualTo(expected);
		for (int i = 0; i < SCHEDULES; i++) {
			assertThat(recurringJobs.find("s" + i).orElseThrow().runCount()).isEqualTo(MINUTES);
		}
	}

	private static Node leader(List<Node> nodes) {
		return nodes.stream().filter((node) -> node.alive() && node.evaluator.isLeader()).findFirst().orElseThrow();
	}

	/** One node: its own job store, cron store and evaluator; it can die on the way. */
	private final class Node {

		final AtomicBoolean dieAfterNextOccurrence = new AtomicBoolean();

		final AtomicBoolean dieInsideNextOccurrence = new AtomicBoolean();

		private final AtomicBoolean dead = new AtomicBoolean();

		final RecurringJobEvaluator evaluator;

		Node(String id, boolean ignoresLease) {
			JdbcJobStore jobs = new JdbcJobStore(AbstractMultiNodeRecurringJobTests.this.schema.dataSource(),
					AbstractMultiNodeRecurringJobTests.this.schema.settings(),
					AbstractMultiNodeRecurringJobTests.this.clock);
			RecurringJobStore store = new DyingStore(new JdbcRecurringJobStore(jobs), ignoresLease);
			OccurrenceJobs occurrenceJobs = (definition, meta, key) -> {
				NewJob job = RecurringJobFixtures.JOBS.job(definition, meta, key);
				// a queue name the job table rejects: the occurrence's transaction fails after its compare-and-set
				return this.dieInsideNextOccurrence.get() ? new NewJob(job.type(), "q".repeat(300), job.priority(),
						job.argsJson(), job.metaJson(), job.retryPolicy(), null, key, job.maxAttempts()) : job;
			};
			this.evaluator = new RecurringJobEvaluator(store, occurrenceJobs, RecurringJobListener.NONE,
					new RecurringJobSettings(id, Duration.ofSeconds(1), Duration.ofMillis(2100), 3));
		}

		boolean alive() {
			return !this.dead.get();
		}

		void evaluate() {
			if (this.dead.get()) {
				return;
			}
			try {
				this.evaluator.evaluate();
			}
			catch (RuntimeException ex) {
				if (!this.dead.get()) {
					throw ex;
				}
			}
		}

		/** The node's store: dead after its dying occurrence, and (for a zombie) always sure it holds the lease. */
		private final class DyingStore extends ForwardingRecurringJobStore {

			private final boolean ignoresLease;

			DyingStore(RecurringJobStore store, boolean ignoresLease) {
				super(store);
				this.ignoresLease = ignoresLease;
			}

			@Override
			protected void check() {
				if (Node.this.dead.get()) {
					throw new IllegalStateException("node is dead");
				}
			}

			@Override
			public boolean holdLease(String nodeId, Duration ttl) {
				check();
				return this.ignoresLease || this.store.holdLease(nodeId, ttl);
			}

			@Override
			public Optional<Advanced> advance(Advance advance) {
				check();
				if (Node.this.dieInsideNextOccurrence.get()) {
					Node.this.dead.set(true);
					this.store.advance(advance);
					throw new AssertionError("the occurrence's transaction must fail");
				}
				Optional<Advanced> advanced = this.store.advance(advance);
				if (advanced.isPresent() && Node.this.dieAfterNextOccurrence.get()) {
					Node.this.dead.set(true);
				}
				return advanced;
			}

		}

	}

}
