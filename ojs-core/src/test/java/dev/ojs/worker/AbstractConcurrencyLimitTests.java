package dev.ojs.worker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.job.TypeLimit;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Per-queue concurrency limits across the cluster (ojs-queue-config.md §6.2 {@code concurrency},
 * L4-RATE-001): at most the limit of a queue's jobs are active at once, whatever the number of
 * nodes and threads claiming; a changed limit holds for the next claim; a dead node's slots come
 * back when the rescuer ends its expired attempts. Run against each database by a subclass.
 */
abstract class AbstractConcurrencyLimitTests extends QueueLimitTestSupport {

	@Test
	void aClaimTakesNoMoreThanTheFreeSlots() {
		JdbcJobStore store = store();
		insert(store, 10);
		QueueState state = store.setConcurrency(QUEUE, 3);
		assertThat(state.concurrency()).isEqualTo(3);
		assertThat(store.queueStates()).containsExactly(state);

		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 2);
		assertThat(first).hasSize(2);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 5)).hasSize(1);
		assertThat(store.claim("b", QUEUE, VISIBILITY, 5)).isEmpty();
		// a slot is not a token: the poller waits for a job to end, not for a time
		assertThat(store.throttledUntil(QUEUE)).isNull();
		store.complete(first, false);
		assertThat(store.claim("b", QUEUE, VISIBILITY, 5)).hasSize(2);
		assertThat(countActive()).isEqualTo(3);
	}

	/**
	 * Completions hand their slots over (issue 30): a refill claims, in the completions' own
	 * transaction and at its instant, no more of the queue's next jobs than the limit leaves,
	 * so the next job starts when the one before completes, with no claim between; a queue
	 * without a limit is not handed over.
	 */
	@Test
	void completionsHandTheirSlotsToTheNextJobsInTheirOwnTransaction() {
		JdbcJobStore store = store();
		List<String> ids = insert(store, 6);
		assertThat(store.handsOverSlots(QUEUE)).as("before the limit").isFalse();
		store.setConcurrency(QUEUE, 2);
		assertThat(store.handsOverSlots(QUEUE)).isTrue();
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 5);
		assertThat(first).extracting(Job::id).containsExactlyElementsOf(ids.subList(0, 2));
		assertThat(store.atConcurrencyLimit(QUEUE)).as("short for want of a slot").isTrue();
		this.clock.advance(Duration.ofMillis(40));

		WorkerStore.Completed completed = store.complete(List.of(first.get(0)), Map.of(), false,
				List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 3)));
		assertThat(completed.written()).containsExactly(first.get(0).id());
		assertThat(completed.claimed()).singleElement().satisfies((next) -> assertThat(next).as("what the limit leaves")
			.extracting(Job::id).containsExactly(ids.get(2)));
		Job handedOver = store.find(ids.get(2)).orElseThrow();
		assertThat(handedOver.state()).isEqualTo(JobState.ACTIVE);
		assertThat(handedOver.lockedBy()).isEqualTo("a");
		assertThat(handedOver.startedAt()).as("started as the job before completed")
			.isEqualTo(store.find(ids.get(0)).orElseThrow().completedAt());
		assertThat(countActive()).isEqualTo(2);

		// both running jobs complete: two slots, handed over as they come
		completed = store.complete(List.of(first.get(1), handedOver), Map.of(), false,
				List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 2)));
		assertThat(completed.claimed().get(0)).extracting(Job::id).containsExactlyElementsOf(ids.subList(3, 5));
		assertThat(countActive()).isEqualTo(2);
		// a refill that is not granted claims nothing, and the limit still holds
		assertThat(store.complete(List.of(), Map.of(), false, List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 2)))
			.claimed()).isEmpty();
		assertThat(store.claim("b", QUEUE, VISIBILITY, 5)).isEmpty();
		assertThat(countActive()).isEqualTo(2);
	}

	/**
	 * A refill that asks for no more slots than its completions freed swaps them (issue 30): it
	 * leaves the queue's active jobs as they were, so it neither waits for the queue's row, which
	 * another claim holds here, nor writes it; what it does not take back is written off the row.
	 * A limit lowered below the active jobs is not swapped: that refill takes its turn.
	 */
	@Test
	void aRefillSwapsTheSlotsItsCompletionsFreedWithoutTheQueuesRow() throws Exception {
		JdbcJobStore store = store();
		List<String> ids = insert(store, 5);
		store.setConcurrency(QUEUE, 2);
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 2);
		assertThat(activeMax()).isEqualTo(2);

		WorkerStore.Completed swapped;
		try (Connection other = this.schema.dataSource().getConnection()) {
			other.setAutoCommit(false);
			lockQueueRow(other);
			swapped = CompletableFuture.supplyAsync(() -> store.complete(List.of(first.get(0)), Map.of(), false,
					List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 1)))).get(20, TimeUnit.SECONDS);
			other.rollback();
		}
		assertThat(swapped.claimed()).singleElement().satisfies((next) -> assertThat(next).extracting(Job::id)
			.containsExactly(ids.get(2)));
		assertThat(activeMax()).as("swapped: unchanged").isEqualTo(2).isEqualTo((int) countActive());

		// two freed, two asked for, one job left: the one not taken back is written off
		List<Job> last = store.complete(List.of(first.get(1), swapped.claimed().get(0).get(0)), Map.of(), false,
				List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 2))).claimed().get(0);
		assertThat(last).extracting(Job::id).containsExactlyElementsOf(ids.subList(3, 5));
		assertThat(activeMax()).isEqualTo(2).isEqualTo((int) countActive());
		insert(store, 2);
		store.setConcurrency(QUEUE, 1);
		assertThat(store.claim("b", QUEUE, VISIBILITY, 5)).as("counted: 2 active, limit 1").isEmpty();
		assertThat(store.complete(List.of(last.get(0)), Map.of(), false,
				List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 1))).claimed().get(0))
			.as("lowered below the active jobs: no swap").isEmpty();
		assertThat(activeMax()).isEqualTo(1).isEqualTo((int) countActive());
	}

	/**
	 * A refill that may claim a job type with a limit of its own takes its turn on the queue's
	 * row (it waits for the claim that holds it), so it locks the type's row after the queue's,
	 * in the order every claim does.
	 */
	@Test
	void aRefillOfATypeWithALimitTakesItsTurnOnTheQueuesRow() throws Exception {
		JdbcJobStore store = store();
		List<String> ids = insert(store, 4);
		store.setConcurrency(QUEUE, 2);
		store.setTypeLimit(TYPE, new TypeLimit(5, null));
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 2);
		CompletableFuture<WorkerStore.Completed> refill;
		try (Connection other = this.schema.dataSource().getConnection()) {
			other.setAutoCommit(false);
			lockQueueRow(other);
			refill = CompletableFuture.supplyAsync(() -> store.complete(List.of(first.get(0)), Map.of(), false,
					List.of(new WorkerStore.Refill("a", QUEUE, VISIBILITY, 1))));
			Thread.sleep(500);
			assertThat(refill).as("waits for the queue's row").isNotDone();
			other.rollback();
		}
		assertThat(refill.get(20, TimeUnit.SECONDS).claimed()).singleElement()
			.satisfies((next) -> assertThat(next).extracting(Job::id).containsExactly(ids.get(2)));
		assertThat(activeMax()).isEqualTo(2).isEqualTo((int) countActive());
	}

	private void lockQueueRow(Connection connection) throws SQLException {
		try (PreparedStatement lock = connection.prepareStatement("SELECT concurrency FROM "
				+ this.schema.settings().queuesTableName() + " WHERE name = ? FOR UPDATE")) {
			lock.setString(1, QUEUE);
			lock.executeQuery().close();
		}
	}

	/**
	 * Fairness between kinds of worker (issue 30): HTTP workers that found a full queue wait for
	 * the next free slot, which the node, having waited less, leaves to them, its hand-over
	 * included; then the node waits longest and the HTTP workers leave it the next. So the two
	 * kinds take turns. A kind that stops asking is forgotten after 5 s.
	 */
	@Test
	void claimersThatFoundTheQueueFullTakeTheNextSlotsInTurn() {
		JdbcJobStore store = store();
		// HTTP workers are one kind, whatever worker each fetch names
		AtomicInteger fetches = new AtomicInteger();
		insert(store, 8);
		store.setConcurrency(QUEUE, 1);
		Job first = store.claim("node-a", QUEUE, VISIBILITY, 5).get(0);
		assertThat(store.claim(RemoteAttempts.owner("http-" + fetches.incrementAndGet()), QUEUE, VISIBILITY, 5)).as("full").isEmpty();
		this.clock.advance(Duration.ofMillis(10));

		// node-a completes and would hand its slot over: the HTTP workers waited longer
		WorkerStore.Completed completed = store.complete(List.of(first), Map.of(), false,
				List.of(new WorkerStore.Refill("node-a", QUEUE, VISIBILITY, 1)));
		assertThat(completed.claimed().get(0)).as("left to the claimer waiting longest").isEmpty();
		assertThat(store.claim("node-a", QUEUE, VISIBILITY, 5)).isEmpty();
		List<Job> http = store.claim(RemoteAttempts.owner("http-" + fetches.incrementAndGet()), QUEUE, VISIBILITY, 5);
		assertThat(http).hasSize(1);
		this.clock.advance(Duration.ofMillis(10));

		// now node-a has waited longest: the next fetch leaves it the slot
		store.complete(http, false);
		assertThat(store.claim(RemoteAttempts.owner("http-" + fetches.incrementAndGet()), QUEUE, VISIBILITY, 5)).isEmpty();
		List<Job> node = store.claim("node-a", QUEUE, VISIBILITY, 5);
		assertThat(node).hasSize(1);

		// the HTTP workers stop asking: after 5 s nobody waits for them
		this.clock.advance(Duration.ofMillis(5001));
		completed = store.complete(node, Map.of(), false, List.of(new WorkerStore.Refill("node-a", QUEUE, VISIBILITY, 1)));
		List<Job> handedOver = completed.claimed().get(0);
		assertThat(handedOver).hasSize(1);
		assertThat(countActive()).isOne();

		// HTTP workers offered the slot with no job of their types to take wait no more
		assertThat(store.claim(RemoteAttempts.owner("http-" + fetches.incrementAndGet()), QUEUE, VISIBILITY, 5)).isEmpty();
		this.clock.advance(Duration.ofMillis(10));
		completed = store.complete(handedOver, Map.of(), false,
				List.of(new WorkerStore.Refill("node-a", QUEUE, VISIBILITY, 1)));
		assertThat(completed.claimed().get(0)).as("left to the HTTP workers").isEmpty();
		assertThat(store.claim(RemoteAttempts.owner("http-" + fetches.incrementAndGet()), QUEUE,
				Map.of("other.job", Duration.ofMinutes(5)), 5)).isEmpty();
		assertThat(store.claim("node-a", QUEUE, VISIBILITY, 5)).as("not held back for them").hasSize(1);
	}

	/**
	 * A worker hands each slot of a queue limited to 1 to the queue's next job as the job before
	 * completes: every job after the first starts at the instant the one before completed, one
	 * at a time in order, with a poll interval of 30 s.
	 */
	@Test
	void aWorkerRunsALimitedQueueFromOneCompletionToTheNextStart() {
		JdbcJobStore operator = store();
		operator.setConcurrency(QUEUE, 1);
		startWorker((attempt) -> Thread.sleep(20), Duration.ofSeconds(30));
		List<String> ids = insert(operator, 8);
		await().atMost(TIMEOUT)
			.until(() -> ids.stream().allMatch((id) -> operator.find(id).orElseThrow().state() == JobState.COMPLETED));
		List<Job> jobs = ids.stream().map((id) -> operator.find(id).orElseThrow()).toList();
		for (int i = 1; i < jobs.size(); i++) {
			assertThat(jobs.get(i).startedAt()).as("job " + i + " started as job " + (i - 1) + " completed")
				.isEqualTo(jobs.get(i - 1).completedAt());
		}
	}

	/**
	 * The exactness case (issue 30: four stores x 32 threads on a queue limited to 3):
	 * four nodes (stores) with 32 threads each claim, run and complete the jobs of a queue
	 * limited to 3; the active jobs, counted by the threads as they run them and sampled in the
	 * database throughout, never exceed 3, and every job completes.
	 */
	@Test
	void fourNodesWith32ThreadsEachNeverRunMoreThanTheLimit() throws Exception {
		List<JdbcJobStore> nodes = List.of(store(), store(), store(), store());
		List<String> ids = insert(nodes.get(0), 120);
		nodes.get(0).setConcurrency(QUEUE, 3);

		ClaimRace.Result race = ClaimRace.run(nodes, 32, ids.size(),
				(node, n, t) -> node.claim("node-" + n, QUEUE, VISIBILITY, 1 + ThreadLocalRandom.current().nextInt(3)),
				List::size, this::countActive);
		assertThat(race.samples()).as("active jobs sampled in the database").isNotEmpty().allMatch((count) -> count <= 3);
		// 128 threads share 16 connections: the limit is reached unless claims wait on the pool throughout
		assertThat(race.maxRunning()).as("jobs running at once").isBetween(2, 3);
		assertThat(race.completed()).isEqualTo(ids.size());
		assertThat(ids).allMatch((id) -> nodes.get(0).find(id).orElseThrow().state() == JobState.COMPLETED);
	}

	/**
	 * A queue's bound ({@code active_max}) is its active jobs: a claim counts them when the bound
	 * is unknown (a limit set over jobs already running) or its count a second old; claims add
	 * what they take, and completions and failures take their jobs off in their own transaction,
	 * so claims in between trust it, also when it leaves no free slot. A cancel of an active job
	 * has the next claim count.
	 */
	@Test
	void activeJobsAreCountedAtMostOnceASecondAndEndsTakeThemOff() {
		JdbcJobStore store = store();
		insert(store, 30);
		List<Job> unlimited = store.claim("a", QUEUE, VISIBILITY, 10);
		store.setConcurrency(QUEUE, 5);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 5)).as("10 already running").isEmpty();
		store.complete(unlimited.subList(0, 8), false);
		assertThat(activeMax()).as("the 8 ended taken off").isEqualTo(2);
		store.setConcurrency(QUEUE, 10);
		assertThat(activeMax()).as("a new limit counts again").isNull();
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 3);
		assertThat(first).hasSize(3);
		assertThat(activeMax()).isEqualTo(5);
		store.complete(first.subList(0, 2), false);
		Instant now = store.now();
		store.fail(List.of(new AttemptFailure(first.get(2), JobState.RETRYABLE, now.plusSeconds(60), List.of(), false,
				now)));
		assertThat(activeMax()).as("completed and failed taken off").isEqualTo(2).isEqualTo((int) countActive());

		// a bound that says more than the jobs running is trusted until its count is a second old
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String queues = this.schema.settings().queuesTableName();
		jdbc.update("UPDATE " + queues + " SET active_max = 10 WHERE name = ?", QUEUE);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).as("not counted: the bound is full").isEmpty();
		this.clock.advance(Duration.ofMillis(999));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).isEmpty();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).as("counted: 2 running").hasSize(8);
		assertThat(activeMax()).isEqualTo(10).isEqualTo((int) countActive());

		Job running = unlimited.get(8);
		assertThat(store.cancel(running.id())).isTrue();
		assertThat(activeMax()).as("a cancel has the next claim count").isNull();
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).hasSize(1);
		assertThat(activeMax()).isEqualTo(10).isEqualTo((int) countActive());
	}

	private Integer activeMax() {
		return activeMax(this.schema.settings().queuesTableName(), QUEUE);
	}

	/** A limit lowered while jobs run holds for the next claim, on this node and another; its queue stays limited. */
	@Test
	void aLimitLoweredWhileJobsRunHoldsForTheNextClaim() {
		JdbcJobStore operator = store();
		JdbcJobStore worker = store();
		insert(operator, 10);
		operator.setConcurrency(QUEUE, 5);
		List<Job> running = worker.claim("w", QUEUE, VISIBILITY, 10);
		assertThat(running).hasSize(5);

		operator.setConcurrency(QUEUE, 2);
		worker.complete(running.subList(0, 2), false);
		// three still run: none free under 2
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 10)).isEmpty();
		assertThat(operator.claim("o", QUEUE, VISIBILITY, 10)).isEmpty();
		worker.complete(running.subList(2, 4), false);
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 10)).hasSize(1);
		assertThat(countActive()).isEqualTo(2);

		operator.setConcurrency(QUEUE, null);
		assertThat(operator.queueStates()).singleElement().satisfies((queue) -> assertThat(queue.concurrency()).isNull());
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 10)).as("the 4 jobs left").hasSize(4);
	}

	/** A queue limited on one node is held to it on another within a second (the default poll interval). */
	@Test
	void aLimitSetOnOneNodeHoldsOnAnotherWithinASecond() {
		JdbcJobStore operator = store();
		JdbcJobStore worker = store();
		insert(operator, 200);
		// the worker has read the limits (none) before the operator sets one
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 3)).hasSize(3);
		operator.setConcurrency(QUEUE, 3);
		long setAt = System.nanoTime();
		// until the worker reads the limit its claims take a job each; then none, with 3 and more active
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> worker.claim("w", QUEUE, VISIBILITY, 1).isEmpty());
		assertThat(Duration.ofNanos(System.nanoTime() - setAt)).isLessThan(Duration.ofMillis(1500));
		assertThat(countActive()).isLessThan(200);
	}

	/** A dead node's slots come back when its reservations expire and the rescuer ends their attempts (retry spec §9.2). */
	@Test
	void aDeadNodesSlotsComeBackAtVisibilityExpiry() {
		JdbcJobStore store = store();
		insert(store, 5);
		store.setConcurrency(QUEUE, 2);
		assertThat(store.claim("dead", QUEUE, Map.of(TYPE, Duration.ofSeconds(10)), 5)).hasSize(2);
		assertThat(store.claim("alive", QUEUE, VISIBILITY, 5)).isEmpty();
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(store.claim("alive", QUEUE, VISIBILITY, 5)).as("expired but not yet rescued").isEmpty();
		assertThat(store.reapExpired(10, (job) -> new AttemptFailure(job, JobState.RETRYABLE,
				this.clock.instant().plusSeconds(60), List.of(), false, this.clock.instant()))).hasSize(2);
		assertThat(store.claim("alive", QUEUE, VISIBILITY, 5)).hasSize(2);
	}

	@Test
	void limitsShareTheQueueRowAndHoldTogether() {
		JdbcJobStore store = store();
		insert(store, 10);
		store.pauseQueue(QUEUE);
		store.setRateLimit(QUEUE, new RateLimit(4, Duration.ofHours(1)));
		QueueState state = store.setConcurrency(QUEUE, 3);
		assertThat(state.paused()).isTrue();
		assertThat(state.rateLimit()).isEqualTo(new RateLimit(4, Duration.ofHours(1)));
		assertThat(store.resumeQueue(QUEUE).concurrency()).isEqualTo(3);
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 10);
		assertThat(first).as("the concurrency limit").hasSize(3);
		store.complete(first, false);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).as("the rate limit's last token").hasSize(1);
		assertThat(store.throttledUntil(QUEUE)).isNotNull();
		assertThatIllegalArgumentException().isThrownBy(() -> store.setConcurrency(QUEUE, 0));
	}

	@Test
	void otherQueuesAreNotLimited() {
		JdbcJobStore store = store();
		store.setConcurrency(QUEUE, 1);
		store.insert(List.of(job(TYPE).queue("free").build(), job(TYPE).queue("free").build(),
				job(TYPE).queue("free").build()));
		assertThat(store.claim("a", "free", VISIBILITY, 10)).hasSize(3);
	}

	/** The schema script adds the concurrency column to a queues table created before it (not on MySQL: see its script). */
	@Test
	void schemaScriptAddsConcurrencyToAnOlderQueuesTable() {
		JdbcJobStore store = store();
		store.pauseQueue(QUEUE);
		String queues = this.schema.settings().queuesTableName();
		new JdbcTemplate(this.schema.dataSource()).execute("ALTER TABLE " + queues + " DROP COLUMN concurrency");
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		assertThat(store.queueStates()).singleElement().satisfies((queue) -> {
			assertThat(queue.paused()).isTrue();
			assertThat(queue.concurrency()).isNull();
		});
		assertThat(store.setConcurrency(QUEUE, 2).concurrency()).isEqualTo(2);
	}

	/**
	 * The in-process worker with 10 slots for the queue on each of two nodes runs no more than the
	 * queue's 3 at once, and reaches 3.
	 */
	@Test
	void workersOnTwoNodesRunNoMoreThanTheLimit() {
		JdbcJobStore operator = this.schema.newStore();
		operator.setConcurrency(QUEUE, 3);
		assertThat(mostRunningOnTwoNodes(operator, Duration.ofMillis(100), () -> insert(operator, 30))).isEqualTo(3);
	}

	/**
	 * The end of a limited queue's job wakes its poller: with a limit of 1, a poll interval of
	 * 5 s and jobs of 700 ms, each next job starts within 400 ms of the last one's end, not at the
	 * poller's next look (its idle time doubles from 5 ms, so it would look 1.275 s after the claim,
	 * 575 ms after the end), and the 10 jobs take less than 9 s in all (12.75 s without the wake).
	 */
	@Test
	void aJobsEndWakesThePollerOfItsLimitedQueue() {
		List<long[]> runs = new CopyOnWriteArrayList<>();
		// set before the worker starts: a claim under way while a limit is set may not follow it yet
		store().setConcurrency(QUEUE, 1);
		JdbcJobStore worker = startWorker((attempt) -> {
			long start = System.nanoTime();
			Thread.sleep(700);
			runs.add(new long[] { start, System.nanoTime() });
		}, Duration.ofSeconds(5));
		long start = System.nanoTime();
		List<String> ids = insert(worker, 10);
		await().atMost(TIMEOUT)
			.until(() -> ids.stream().allMatch((id) -> worker.find(id).orElseThrow().state() == JobState.COMPLETED));
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(took).as("10 jobs of 700 ms one at a time").isLessThan(Duration.ofSeconds(9));
		List<long[]> ordered = runs.stream().sorted(Comparator.comparingLong((long[] run) -> run[0])).toList();
		for (int i = 1; i < ordered.size(); i++) {
			assertThat(ordered.get(i)[0]).as("one at a time").isGreaterThanOrEqualTo(ordered.get(i - 1)[1]);
			assertThat(Duration.ofNanos(ordered.get(i)[0] - ordered.get(i - 1)[1])).as("from an end to the next start")
				.isLessThan(Duration.ofMillis(400));
		}
	}

	/**
	 * A cancelled active job frees its slot as an ended one does, and wakes the poller of its
	 * limited queue: with a limit of 1 held by a job running on another node and a poll interval
	 * of 30 s, the worker's job starts within 2 s of that job's cancel, not at the poller's next
	 * look (about 10.2 s after its last claim, 4.7 s after the cancel).
	 */
	@Test
	void cancellingAnActiveJobWakesThePollerOfItsLimitedQueue() {
		AtomicLong started = new AtomicLong();
		store().setConcurrency(QUEUE, 1);
		JdbcJobStore worker = startWorker((attempt) -> started.set(System.nanoTime()), Duration.ofSeconds(30));
		String holding = worker.insert(List.of(job("other.job").queue(QUEUE).build())).get(0);
		JdbcJobStore other = this.schema.newStore();
		assertThat(other.claim("other-node", QUEUE, Map.of("other.job", Duration.ofMinutes(5)), 1)).extracting(Job::id)
			.containsExactly(holding);
		insert(worker, 1);
		assertThat(fromEndToStart(Duration.ofMillis(5500), started::get,
				() -> assertThat(worker.cancel(holding)).isTrue()))
			.as("from the cancel to the next start").isLessThan(Duration.ofSeconds(2));
	}

	private long countActive() {
		Long count = new JdbcTemplate(this.schema.dataSource()).queryForObject(
				"SELECT count(*) FROM " + this.schema.tableName() + " WHERE state = 'active' AND queue = ?", Long.class,
				QUEUE);
		return (count != null) ? count : 0;
	}

}
