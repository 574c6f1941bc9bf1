package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.retry.ErrorCode;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sequences (issue 30): jobs with one sequence key run one at a time, strictly in enqueue
 * order, on all nodes together; a job holds the ones after it until it ends in a terminal
 * state (its retries included), and a dead letter, discard or cancel releases them. Claims of
 * named types (in-process pollers) and of any type (HTTP fetches) alike. A job's end starts the
 * next of its sequence at once, not at the next poll. Run against each database by a subclass.
 */
abstract class AbstractSequenceTests extends QueueLimitTestSupport {

	static final Map<String, Duration> ANY = Map.of(WorkerStore.ANY_TYPE, Duration.ofMinutes(5));

	@Test
	void jobsOfOneKeyAreClaimedOneAtATimeInEnqueueOrder() {
		JdbcJobStore store = store();
		List<String> ids = store.insert(List.of(seq("a"), seq("a"), seq("b"), seq("a"), plain(), seq("b")));
		List<Job> first = store.claim("n", QUEUE, VISIBILITY, 20);
		assertThat(ids(first)).as("the head of each sequence, and the job without a key")
			.containsExactlyInAnyOrder(ids.get(0), ids.get(2), ids.get(4));
		assertThat(first).as("a claimed job carries its key").extracting(Job::sequenceKey)
			.containsExactlyInAnyOrder("a", "b", null);
		assertThat(store.find(ids.get(1)).orElseThrow().sequenceKey()).isEqualTo("a");
		assertThat(store.claim("n", QUEUE, VISIBILITY, 20)).as("an active job holds its sequence").isEmpty();
		assertThat(store.claim("http:w", QUEUE, ANY, 20)).as("a fetch of any type too").isEmpty();
		store.complete(first, false);
		List<Job> second = store.claim("http:w", QUEUE, ANY, 20);
		assertThat(ids(second)).containsExactlyInAnyOrder(ids.get(1), ids.get(5));
		store.complete(second, false);
		assertThat(ids(store.claim("n", QUEUE, VISIBILITY, 20))).containsExactly(ids.get(3));
	}

	/** Enqueue order wins over priority and due time within a sequence (decision 18 orders the rest). */
	@Test
	void aLaterJobOfASequenceWaitsWhateverItsPriorityOrDueTime() {
		JdbcJobStore store = store();
		List<String> ids = store.insert(List.of(job(TYPE).queue(QUEUE).sequenceKey("a").runAt(this.clock.instant()
			.plusSeconds(30)).build(), job(TYPE).queue(QUEUE).sequenceKey("a").priority(10).build()));
		assertThat(store.claim("n", QUEUE, VISIBILITY, 20)).as("the head is not due yet, and holds the rest").isEmpty();
		this.clock.advance(Duration.ofSeconds(31));
		List<Job> head = store.claim("n", QUEUE, VISIBILITY, 20);
		assertThat(ids(head)).containsExactly(ids.get(0));
		store.complete(head, false);
		assertThat(ids(store.claim("n", QUEUE, VISIBILITY, 20))).containsExactly(ids.get(1));
	}

	@Test
	void aFailingJobHoldsItsSequenceThroughItsRetriesAndADeadLetterReleasesIt() {
		JdbcJobStore store = store();
		List<String> ids = store.insert(List.of(seq("a"), seq("a"), seq("a")));
		Job first = store.claim("n", QUEUE, VISIBILITY, 20).get(0);
		store.fail(List.of(failure(first, JobState.RETRYABLE)));
		assertThat(store.claim("n", QUEUE, VISIBILITY, 20)).as("a retryable job holds its sequence").isEmpty();
		this.clock.advance(Duration.ofSeconds(61));
		List<Job> retry = store.claim("n", QUEUE, VISIBILITY, 20);
		assertThat(ids(retry)).as("the retry runs before the rest").containsExactly(ids.get(0));
		store.fail(List.of(failure(retry.get(0), JobState.DISCARDED)));
		assertThat(store.find(ids.get(0)).orElseThrow().deadLetter()).isTrue();
		List<Job> next = store.claim("n", QUEUE, VISIBILITY, 20);
		assertThat(ids(next)).as("a dead letter releases its sequence").containsExactly(ids.get(1));
		store.complete(next, false);
		assertThat(ids(store.claim("n", QUEUE, VISIBILITY, 20))).containsExactly(ids.get(2));
	}

	/**
	 * A node killed mid-job holds its job's sequence until the reservation expires and the
	 * rescuer ends the attempt (retry spec §9.2); the job's retry then runs before the rest.
	 */
	@Test
	void aDeadNodesJobHoldsItsSequenceUntilItsReservationExpires() {
		JdbcJobStore store = store();
		List<String> ids = store.insert(List.of(seq("a"), seq("a")));
		assertThat(ids(store.claim("dead", QUEUE, Map.of(TYPE, Duration.ofSeconds(10)), 5))).containsExactly(ids.get(0));
		assertThat(store.claim("alive", QUEUE, VISIBILITY, 5)).isEmpty();
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(store.claim("alive", QUEUE, VISIBILITY, 5)).as("expired but not yet rescued").isEmpty();
		assertThat(store.reapExpired(10, (job) -> new AttemptFailure(job, JobState.RETRYABLE, this.clock.instant(),
				List.of(), false, this.clock.instant()))).hasSize(1);
		List<Job> retry = store.claim("alive", QUEUE, VISIBILITY, 5);
		assertThat(ids(retry)).as("the rescued job's retry, alone").containsExactly(ids.get(0));
		store.complete(retry, false);
		assertThat(ids(store.claim("alive", QUEUE, VISIBILITY, 5))).containsExactly(ids.get(1));
	}

	@Test
	void aCancelledJobReleasesItsSequence() {
		JdbcJobStore store = store();
		List<String> ids = store.insert(List.of(seq("a"), seq("a")));
		assertThat(store.cancel(ids.get(0))).isTrue();
		assertThat(ids(store.claim("n", QUEUE, VISIBILITY, 20))).containsExactly(ids.get(1));
	}

	/**
	 * While no job has a sequence key, claims leave the sequence check out and take no job with
	 * a key (the store reads whether any has one at most once a second). The node that inserts
	 * the first jobs with a key checks from its next claim on; another node, once it reads
	 * again, and never out of order meanwhile.
	 */
	@Test
	void theFirstJobsWithASequenceKeyAreClaimedInOrderOnEveryNode() {
		JdbcJobStore store = store();
		JdbcJobStore other = store();
		String plainId = store.insert(List.of(plain())).get(0);
		assertThat(ids(store.claim("n", QUEUE, VISIBILITY, 20))).containsExactly(plainId);
		assertThat(other.claim("o", QUEUE, VISIBILITY, 20)).isEmpty();
		List<String> ids = other.insert(List.of(seq("a"), seq("a"), seq("b"), seq("b")));
		assertThat(ids(other.claim("o", QUEUE, VISIBILITY, 1))).as("the inserting node's next claim")
			.containsExactly(ids.get(0));
		List<String> claimed = new ArrayList<>();
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> {
			claimed.addAll(ids(store.claim("n", QUEUE, VISIBILITY, 20)));
			return !claimed.isEmpty();
		});
		assertThat(claimed).as("the other node, once it read again: the head of b only").containsExactly(ids.get(2));
	}

	/**
	 * Four nodes with four threads each, half claiming named types as pollers do, half any type
	 * as HTTP workers do, run 5 sequences of 16 jobs each, enqueued interleaved, beside jobs
	 * without a key: each sequence's jobs start strictly in enqueue order, never two of one
	 * key are active at once (sampled in the database), and every job completes.
	 */
	@Test
	void fourNodesRunEachSequenceInOrderOneAtATime() throws Exception {
		List<JdbcJobStore> nodes = List.of(store(), store(), store(), store());
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < 80; i++) {
			jobs.add(seq("k" + (i % 5)));
			if (i % 4 == 0) {
				jobs.add(plain());
			}
		}
		List<String> ids = nodes.get(0).insert(jobs);
		Map<String, String> keyById = new HashMap<>();
		for (int i = 0; i < ids.size(); i++) {
			if (jobs.get(i).sequenceKey() != null) {
				keyById.put(ids.get(i), jobs.get(i).sequenceKey());
			}
		}
		Map<String, List<String>> started = new HashMap<>();
		ClaimRace.Result race = ClaimRace.run(nodes, 4, ids.size(),
				(node, n, t) -> node.claim("node-" + n + "-" + t, QUEUE, (t % 2 == 0) ? VISIBILITY : ANY, 3), (claimed) -> {
					synchronized (started) {
						claimed.stream().filter((job) -> keyById.containsKey(job.id())).forEach((job) -> started
							.computeIfAbsent(keyById.get(job.id()), (key) -> new ArrayList<>()).add(job.id()));
					}
					return claimed.size();
				}, this::mostActiveOfOneKey);
		assertThat(race.samples()).as("the most active jobs of one key, sampled in the database").isNotEmpty()
			.allMatch((count) -> count <= 1);
		assertThat(race.completed()).isEqualTo(ids.size());
		assertThat(started).hasSize(5);
		started.forEach((key, order) -> {
			List<String> enqueued = ids.stream().filter((id) -> key.equals(keyById.get(id))).toList();
			assertThat(order).as("start order of " + key).containsExactlyElementsOf(enqueued);
		});
		List<String> sorted = new ArrayList<>(ids);
		Collections.sort(sorted);
		assertThat(sorted).as("ids grow in enqueue order").containsExactlyElementsOf(ids);
	}

	/**
	 * The end of a job of a sequence wakes its queue's poller, as a freed slot does, though the
	 * queue has no limit: with a poll interval of 30 s, the next job of the sequence starts within
	 * 2 s of its predecessor's end. Without the wake it would start at the poller's next look,
	 * which its idle time, doubling from 5 ms after the claim towards the poll interval, puts
	 * 10.2 s after the claim, 4.7 s after an end 5.5 s after the claim.
	 */
	@Test
	void theEndOfAJobStartsTheNextOfItsSequenceWithinThePollInterval() {
		CountDownLatch end = new CountDownLatch(1);
		Map<String, Long> started = new ConcurrentHashMap<>();
		JdbcJobStore worker = startWorker((attempt) -> {
			started.put(attempt.job().id(), System.nanoTime());
			assertThat(end.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		}, Duration.ofSeconds(30));
		List<String> ids = worker.insert(List.of(seq("a"), seq("a")));
		await().atMost(Duration.ofSeconds(10)).until(() -> started.containsKey(ids.get(0)));
		assertThat(fromEndToStart(Duration.ofMillis(5500), () -> started.getOrDefault(ids.get(1), 0L), end::countDown))
			.as("from the end to the next start").isLessThan(Duration.ofSeconds(2));
	}

	/**
	 * A cancelled job wakes its queue's pollers as any other end does: with a poll interval of
	 * 30 s, the next job of a sequence whose head, due in ten minutes, is cancelled while it
	 * waits starts within 2 s of the cancel, not at the poller's next look (about 10.2 s after
	 * its last claim, 4.7 s after the cancel).
	 */
	@Test
	void cancellingTheWaitingHeadOfASequenceStartsTheNextWithinThePollInterval() {
		Map<String, Long> started = new ConcurrentHashMap<>();
		JdbcJobStore worker = startWorker((attempt) -> started.put(attempt.job().id(), System.nanoTime()),
				Duration.ofSeconds(30));
		List<String> ids = worker.insert(List.of(job(TYPE).queue(QUEUE).sequenceKey("a")
			.runAt(Instant.now().plus(Duration.ofMinutes(10))).build(), seq("a")));
		assertThat(fromEndToStart(Duration.ofMillis(5500), () -> started.getOrDefault(ids.get(1), 0L),
				() -> assertThat(worker.cancel(ids.get(0))).isTrue()))
			.as("from the cancel to the next start").isLessThan(Duration.ofSeconds(2));
		assertThat(started).as("the cancelled head never ran").doesNotContainKey(ids.get(0));
	}

	/**
	 * A bulk cancel (the Admin API's) of the heads of two sequences, one due in ten minutes and
	 * one waiting for its retry in ten minutes (a type no worker here runs, claimed on another
	 * node), starts the next job of each within 2 s, with a poll interval of 30 s.
	 */
	@Test
	void aBulkCancelOfTheWaitingHeadsOfSequencesStartsTheNextOfEachWithinThePollInterval() {
		Map<String, Long> started = new ConcurrentHashMap<>();
		JdbcJobStore worker = startWorker((attempt) -> started.put(attempt.job().id(), System.nanoTime()),
				Duration.ofSeconds(30));
		Instant later = Instant.now().plus(Duration.ofMinutes(10));
		List<String> ids = worker.insert(List.of(job(TYPE).queue(QUEUE).sequenceKey("a").runAt(later).build(),
				seq("other.job", "b"), seq("a"), seq("b")));
		JdbcJobStore other = this.schema.newStore();
		Job retried = other.claim("other-node", QUEUE, Map.of("other.job", Duration.ofMinutes(5)), 1).get(0);
		assertThat(retried.id()).isEqualTo(ids.get(1));
		assertThat(other.fail(List.of(new AttemptFailure(retried, JobState.RETRYABLE, later, List.of(), false,
				Instant.now())))).containsExactly(retried.id());
		LongSupplier bothStarted = () -> (started.containsKey(ids.get(2)) && started.containsKey(ids.get(3)))
				? Math.max(started.get(ids.get(2)), started.get(ids.get(3))) : 0L;
		assertThat(fromEndToStart(Duration.ofMillis(5500), bothStarted,
				() -> assertThat(worker.cancel(List.of(ids.get(0), ids.get(1)))).isEqualTo(2)))
			.as("from the cancel to the start of both next jobs").isLessThan(Duration.ofSeconds(2));
		assertThat(worker.find(ids.get(1)).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
	}

	NewJob seq(String key) {
		return seq(TYPE, key);
	}

	NewJob seq(String type, String key) {
		return job(type).queue(QUEUE).sequenceKey(key).build();
	}

	NewJob plain() {
		return job(TYPE).queue(QUEUE).build();
	}

	AttemptFailure failure(Job job, JobState state) {
		boolean retry = state == JobState.RETRYABLE;
		return new AttemptFailure(job, state, retry ? this.clock.instant().plusSeconds(60) : null,
				List.of(new ErrorEntry(job.attempt(), "handler_error", "failed", retry ? ErrorCode.RETRY : ErrorCode.DEAD_LETTER,
						this.clock.instant(), Map.of())),
				!retry, this.clock.instant());
	}

	static List<String> ids(List<Job> jobs) {
		return jobs.stream().map(Job::id).toList();
	}

	private long mostActiveOfOneKey() {
		List<Long> counts = new JdbcTemplate(this.schema.dataSource()).queryForList("SELECT count(*) FROM "
				+ this.schema.tableName() + " WHERE state = 'active' AND sequence_key IS NOT NULL GROUP BY sequence_key",
				Long.class);
		return counts.stream().mapToLong(Long::longValue).max().orElse(0);
	}

}
