package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-queue rate limits (ojs-queue-config.md §6.2 and §8.3, L4-RATE-001, spec README decision
 * 22) on a table shared by several nodes: claims of every node draw from one bucket per queue,
 * and the in-process worker waits for the bucket's next token. Run against each database by a
 * subclass.
 */
abstract class AbstractRateLimitTests extends QueueLimitTestSupport {

	@Test
	void aClaimTakesNoMoreThanTheBucketHoldsAndTokensComeBackAtTheRate() {
		JdbcJobStore store = store();
		insert(store, 30);
		store.setRateLimit(QUEUE, new RateLimit(10, Duration.ofSeconds(1)));

		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(10);
		assertThat(store.throttledUntil(QUEUE)).isEqualTo(this.clock.instant().plusMillis(100));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).isEmpty();

		this.clock.advance(Duration.ofMillis(500));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(5);
		this.clock.advance(Duration.ofSeconds(60));
		// an idle bucket refills to the limit, never past it
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(10);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 2)).isEmpty();
	}

	/** A claim that comes back short because the queue ran dry is not throttled: the poller waits for work, not for a token. */
	@Test
	void aQueueThatRunsDryIsNotThrottled() {
		JdbcJobStore store = store();
		insert(store, 3);
		store.setRateLimit(QUEUE, new RateLimit(10, Duration.ofSeconds(1)));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(3);
		assertThat(store.throttledUntil(QUEUE)).isNull();
		insert(store, 10);
		// 7 tokens left for 10 jobs: throttled until the next token
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(7);
		assertThat(store.throttledUntil(QUEUE)).isEqualTo(this.clock.instant().plusMillis(100));
	}

	/** A claim of an empty queue whose bucket was never drawn from takes nothing and leaves the bucket full. */
	@Test
	void aClaimOfAnEmptyQueueWithAFullBucketTakesNothing() {
		JdbcJobStore store = store();
		store.setRateLimit(QUEUE, new RateLimit(10, Duration.ofSeconds(1)));
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).isEmpty();
		assertThat(store.throttledUntil(QUEUE)).isNull();
		insert(store, 30);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 25)).hasSize(10);
	}

	@Test
	void nodesDrawFromOneBucketPerQueue() throws Exception {
		List<JdbcJobStore> nodes = List.of(store(), store(), store(), store());
		insert(nodes.get(0), 200);
		nodes.get(0).setRateLimit(QUEUE, new RateLimit(25, Duration.ofMinutes(1)));

		ExecutorService threads = Executors.newFixedThreadPool(nodes.size());
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Integer>> claimed = new ArrayList<>();
			for (int i = 0; i < nodes.size(); i++) {
				JdbcJobStore node = nodes.get(i);
				String nodeId = "node-" + i;
				claimed.add(threads.submit(() -> {
					go.await();
					int total = 0;
					for (int round = 0; round < 10; round++) {
						total += node.claim(nodeId, QUEUE, VISIBILITY, 7).size();
					}
					return total;
				}));
			}
			go.countDown();
			int total = 0;
			for (Future<Integer> future : claimed) {
				total += future.get();
			}
			// the clock stood still: exactly the bucket's 25 tokens, shared by the four nodes
			assertThat(total).isEqualTo(25);
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(countActive(nodes.get(0))).isEqualTo(25);
	}

	@Test
	void aLimitSetOnOneNodeHoldsOnAnotherWithinASecondAndCanBeRemoved() {
		JdbcJobStore operator = store();
		JdbcJobStore worker = store();
		insert(operator, 20);
		// the worker has read the limits (none) before the operator sets one
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 1)).hasSize(1);

		QueueState state = operator.setRateLimit(QUEUE, new RateLimit(3, Duration.ofHours(1)));
		assertThat(state.rateLimit()).isEqualTo(new RateLimit(3, Duration.ofHours(1)));
		assertThat(operator.queueStates()).containsExactly(state);
		await().atMost(Duration.ofSeconds(5)).until(() -> {
			worker.claim("w", QUEUE, VISIBILITY, 1);
			return worker.throttledUntil(QUEUE) != null;
		});
		assertThat(worker.claim("w", QUEUE, VISIBILITY, 10)).isEmpty();

		operator.setRateLimit(QUEUE, null);
		assertThat(operator.queueStates()).singleElement().satisfies((queue) -> {
			assertThat(queue.rateLimit()).isNull();
			assertThat(queue.paused()).isFalse();
		});
		await().atMost(Duration.ofSeconds(5)).until(() -> !worker.claim("w", QUEUE, VISIBILITY, 10).isEmpty());
		assertThat(worker.throttledUntil(QUEUE)).isNull();
	}

	/**
	 * A limit set in the caller's transaction (as the HTTP binding sets a job's, with its insert)
	 * holds for the first claim after the commit, although a claim during the transaction read
	 * the limits without it.
	 */
	@Test
	void aLimitSetInATransactionHoldsFromItsCommit() throws Exception {
		JdbcJobStore store = store();
		insert(store, 10);
		ExecutorService other = Executors.newSingleThreadExecutor();
		try {
			new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource())).executeWithoutResult((tx) -> {
				store.setRateLimit(QUEUE, new RateLimit(2, Duration.ofHours(1)));
				try {
					// not committed yet: this claim reads no limit, and takes its one job
					assertThat(other.submit(() -> store.claim("a", QUEUE, VISIBILITY, 1)).get()).hasSize(1);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
		}
		finally {
			other.shutdownNow();
		}
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).hasSize(2);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).isEmpty();
	}

	/** The schema script adds the rate-limit columns to a queues table created before them (not on MySQL: see its script). */
	@Test
	void schemaScriptAddsRateLimitsToAnOlderQueuesTable() {
		JdbcJobStore store = store();
		store.pauseQueue(QUEUE);
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String queues = this.schema.settings().queuesTableName();
		for (String column : List.of("rate_limit", "rate_period_ms", "rate_tat")) {
			jdbc.execute("ALTER TABLE " + queues + " DROP COLUMN " + column);
		}
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		assertThat(store.queueStates()).singleElement().satisfies((queue) -> {
			assertThat(queue.paused()).isTrue();
			assertThat(queue.rateLimit()).isNull();
		});
		insert(store, 3);
		store.setRateLimit(QUEUE, new RateLimit(1, Duration.ofHours(1)));
		store.resumeQueue(QUEUE);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 3)).hasSize(1);
	}

	@Test
	void pauseAndRateLimitShareTheQueueRow() {
		JdbcJobStore store = store();
		store.pauseQueue(QUEUE);
		QueueState limited = store.setRateLimit(QUEUE, RateLimit.perSecond(5));
		assertThat(limited.paused()).isTrue();
		assertThat(limited.rateLimit()).isEqualTo(RateLimit.perSecond(5));
		QueueState resumed = store.resumeQueue(QUEUE);
		assertThat(resumed.paused()).isFalse();
		assertThat(resumed.rateLimit()).isEqualTo(RateLimit.perSecond(5));
		assertThat(store.pausedQueues()).isEmpty();
	}

	@Test
	void otherQueuesAreNotLimited() {
		JdbcJobStore store = store();
		store.setRateLimit(QUEUE, new RateLimit(1, Duration.ofHours(1)));
		store.insert(List.of(job(TYPE).queue("free").build(), job(TYPE).queue("free").build(),
				job(TYPE).queue("free").build()));
		assertThat(store.claim("a", "free", VISIBILITY, 10)).hasSize(3);
		assertThat(store.throttledUntil("free")).isNull();
	}

	/**
	 * The in-process worker: 14 jobs under 4 per second start no faster than the bucket lets
	 * them (4 at once, then one per 250 ms: the last 2.5 s after the first), and keep pace with
	 * the bucket: the poller looks again when a token is back, never a poll interval (2 s) later.
	 */
	@Test
	void theWorkerStartsJobsAtTheQueuesRate() {
		JdbcJobStore operator = this.schema.newStore();
		operator.setRateLimit(QUEUE, RateLimit.perSecond(4));
		// when each job was claimed, on the store's clock: the time its token was drawn
		Map<String, Long> startedAt = new ConcurrentHashMap<>();
		startWorker((attempt) -> startedAt.put(attempt.job().id(), RateLimit.epochNanos(attempt.job().startedAt())),
				Duration.ofSeconds(2));
		List<String> ids = insert(operator, 14);

		await().atMost(TIMEOUT).until(() -> startedAt.size() == ids.size());
		List<Long> starts = new ArrayList<>(startedAt.values());
		Collections.sort(starts);
		Duration span = Duration.ofNanos(starts.get(starts.size() - 1) - starts.get(0));
		assertThat(span).isGreaterThanOrEqualTo(Duration.ofMillis(2500));
		assertThat(span).isLessThan(Duration.ofMillis(2500 + 750));
		// no more than limit + rate × t in any stretch: 4 + 4 × 1 s within each second
		for (int i = 0; i < starts.size(); i++) {
			long end = starts.get(i) + Duration.ofSeconds(1).toNanos();
			assertThat(starts.subList(i, starts.size()).stream().filter((at) -> at < end).count()).isLessThanOrEqualTo(8);
		}
		await().atMost(TIMEOUT)
			.until(() -> ids.stream().allMatch((id) -> operator.find(id).orElseThrow().state() == JobState.COMPLETED));
	}

	private long countActive(JdbcJobStore store) {
		return store.countByQueueAndState().getOrDefault(QUEUE, Map.of()).getOrDefault(JobState.ACTIVE, 0L);
	}

}
