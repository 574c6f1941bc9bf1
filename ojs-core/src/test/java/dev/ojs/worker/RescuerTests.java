package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Rescuer}: expired reservations become failed attempts of type
 * {@code visibility_timeout} (spec §9.2, RET-12), retried or ended per the job's policy
 * (RET-01, RET-17), unless a heartbeat extended them first (§9.3, RET-13); a run works
 * through batches up to its limit. Driven through {@link Rescuer#rescue()} on a
 * {@link FakeWorkerStore} whose clock only moves when told.
 */
class RescuerTests {

	private static final String NODE = "node-1";

	private static final String TYPE = "test.job";

	private static final String QUEUE = "emails";

	private static final Duration VISIBILITY = Duration.ofSeconds(30);

	/** Three attempts, retried after 10s then 20s, no jitter. */
	private static final RetryPolicy POLICY = RetryPolicy.builder()
		.maxAttempts(3)
		.initialInterval(Duration.ofSeconds(10))
		.backoffCoefficient(2.0)
		.jitter(false)
		.build()
		.effective();

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final CountingStore counting = new CountingStore(this.store);

	private final RecordingListener listener = new RecordingListener();

	/** Each retry due reported: its queue and time. */
	private final List<Map.Entry<String, Instant>> retriesDue = new CopyOnWriteArrayList<>();

	@Test
	void expiredReservationIsAFailedAttemptRetriedPerPolicyRet12() {
		Job claimed = claim(POLICY);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		Instant now = this.store.now();

		rescuer(() -> true).rescue();

		Job stored = this.store.get(claimed.id());
		// due at once, so stored available, as the JDBC stores do (AttemptFailure.storedState)
		assertThat(stored.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(stored.attempt()).isEqualTo(1);
		// a stalled attempt: the backoff (10 s) counts from its claim, and the reservation
		// outlasts it, so the retry is due when the reservation ended (docs/retries.md)
		Instant due = claimed.lockedUntil();
		assertThat(stored.scheduledAt()).isEqualTo(due);
		assertThat(stored.lockedUntil()).isNull();
		ErrorEntry error = stored.lastError();
		assertThat(error.type()).isEqualTo("visibility_timeout");
		assertThat(error.code()).isEqualTo(ErrorCode.RETRY);
		assertThat(error.attempt()).isEqualTo(1);
		assertThat(error.timestamp()).isEqualTo(now);
		assertThat(this.retriesDue).containsExactly(Map.entry(QUEUE, due));
		assertThat(this.listener.kinds(claimed.id())).containsExactly("retrying");
		RecordingListener.Event event = this.listener.of(claimed.id()).get(0);
		assertThat(event.error().type()).isEqualTo("visibility_timeout");
		assertThat(event.delay()).isEqualTo(Duration.ZERO);
		assertThat(event.nextRetryAt()).isEqualTo(due);
		assertThat(event.job().attempt()).isEqualTo(1);
	}

	@Test
	void eachExpiredAttemptIsRecordedAndToldOnce() {
		Job claimed = claim(POLICY);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		Rescuer rescuer = rescuer(() -> true);

		rescuer.rescue();
		rescuer.rescue();
		this.store.clock.advance(Duration.ofMinutes(1));
		rescuer.rescue();

		assertThat(this.listener.events).hasSize(1);
		assertThat(this.retriesDue).hasSize(1);
		assertThat(this.store.get(claimed.id()).errors()).hasSize(1);
	}

	@Test
	void timeoutsConsumeAttemptsUntilExhaustedThenDiscardRet01() {
		Job claimed = claim(POLICY);
		Rescuer rescuer = rescuer(() -> true);
		List<Duration> delays = new CopyOnWriteArrayList<>();
		for (int attempt = 1; attempt <= 3; attempt++) {
			if (attempt > 1) {
				// the retry comes due and is claimed again
				this.store.clock.set(this.store.get(claimed.id()).scheduledAt());
				assertThat(this.store.claim(NODE, QUEUE, Map.of(TYPE, VISIBILITY), 10)).extracting(Job::attempt)
					.containsExactly(attempt);
			}
			this.store.clock.advance(VISIBILITY.plusSeconds(1));
			rescuer.rescue();
		}

		Job stored = this.store.get(claimed.id());
		assertThat(stored.state()).isEqualTo(JobState.DISCARDED);
		assertThat(stored.deadLetter()).isFalse();
		assertThat(stored.errors()).extracting(ErrorEntry::attempt).containsExactly(1, 2, 3);
		assertThat(stored.errors()).extracting(ErrorEntry::type).containsOnly("visibility_timeout");
		assertThat(this.listener.kinds(claimed.id())).containsExactly("retrying", "retrying", "discarded");
		this.listener.events.stream().map(RecordingListener.Event::delay).filter((delay) -> delay != null)
			.forEach(delays::add);
		// the reservation outlasts each backoff: each retry is due at once when rescued
		assertThat(delays).containsExactly(Duration.ZERO, Duration.ZERO);
		assertThat(this.retriesDue).hasSize(2);
	}

	@Test
	void exhaustedTimeoutIsDeadLetteredUnderDeadLetterExhaustionRet17() {
		RetryPolicy once = RetryPolicy.builder().maxAttempts(1).onExhaustion(OnExhaustion.DEAD_LETTER).build()
			.effective();
		Job claimed = claim(once);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));

		rescuer(() -> true).rescue();

		Job stored = this.store.get(claimed.id());
		assertThat(stored.state()).isEqualTo(JobState.DISCARDED);
		assertThat(stored.deadLetter()).isTrue();
		assertThat(stored.discardedAt()).isEqualTo(this.store.now());
		assertThat(this.listener.kinds(claimed.id())).containsExactly("deadLettered");
		assertThat(this.retriesDue).isEmpty();
	}

	@Test
	void timeoutIsRetriedEvenWhenItsTypeIsListedNonRetryable() {
		RetryPolicy policy = RetryPolicy.builder().nonRetryableErrors("visibility_timeout").jitter(false).build()
			.effective();
		Job claimed = claim(policy);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));

		rescuer(() -> true).rescue();

		assertThat(this.store.get(claimed.id()).state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.listener.kinds(claimed.id())).containsExactly("retrying");
	}

	@Test
	void reservationNotYetExpiredIsLeftAlone() {
		Job claimed = claim(POLICY);
		this.store.clock.advance(VISIBILITY.minusSeconds(1));

		rescuer(() -> true).rescue();

		assertThat(this.store.get(claimed.id())).isEqualTo(claimed);
		assertThat(this.listener.events).isEmpty();
		assertThat(this.retriesDue).isEmpty();
	}

	@Test
	void heartbeatThatExtendedTheReservationFirstWinsRet13() {
		Job claimed = claim(POLICY);
		this.store.clock.advance(Duration.ofSeconds(20));
		assertThat(this.store.heartbeat(NODE, List.of(claimed.id()), this.store.now().plus(VISIBILITY))).isOne();
		// past the first reservation, within the extended one
		this.store.clock.advance(Duration.ofSeconds(15));

		rescuer(() -> true).rescue();

		assertThat(this.store.get(claimed.id()).state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.listener.events).isEmpty();
	}

	@Test
	void oneRunWorksThroughSeveralBatches() {
		List<Job> claimed = claimMany(Rescuer.BATCH * 2 + 50);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));

		rescuer(() -> true).rescue();

		assertThat(this.counting.reapLimits).containsExactly(Rescuer.BATCH, Rescuer.BATCH, Rescuer.BATCH);
		assertThat(count(JobState.AVAILABLE)).isEqualTo(claimed.size());
		assertThat(this.listener.events).hasSize(claimed.size());
		assertThat(this.listener.events).extracting((event) -> event.job().id()).doesNotHaveDuplicates();
		assertThat(this.retriesDue).hasSize(claimed.size());
	}

	@Test
	void oneRunStopsAfterMaxBatchesAndTheNextRunGoesOn() {
		int total = Rescuer.BATCH * Rescuer.MAX_BATCHES + 50;
		claimMany(total);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		Rescuer rescuer = rescuer(() -> true);

		rescuer.rescue();

		assertThat(this.counting.reapLimits).hasSize(Rescuer.MAX_BATCHES);
		assertThat(count(JobState.AVAILABLE)).isEqualTo(Rescuer.BATCH * Rescuer.MAX_BATCHES);
		assertThat(count(JobState.ACTIVE)).isEqualTo(50);

		rescuer.rescue();

		assertThat(count(JobState.AVAILABLE)).isEqualTo(total);
		assertThat(this.listener.events).hasSize(total);
		assertThat(this.listener.events).extracting((event) -> event.job().id()).doesNotHaveDuplicates();
	}

	@Test
	void runStopsAfterTheCurrentBatchWhenTheWorkerStops() {
		claimMany(Rescuer.BATCH * 3);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		AtomicInteger asked = new AtomicInteger();
		// running for the first check only
		Rescuer rescuer = rescuer(() -> asked.incrementAndGet() == 1);

		rescuer.rescue();

		assertThat(this.counting.reapLimits).hasSize(2);
		assertThat(count(JobState.AVAILABLE)).isEqualTo(Rescuer.BATCH * 2);
		assertThat(count(JobState.ACTIVE)).isEqualTo(Rescuer.BATCH);
		assertThat(this.listener.events).hasSize(Rescuer.BATCH * 2);
	}

	@Test
	void stoppedWorkerStillFinishesTheFirstBatch() {
		claimMany(Rescuer.BATCH + 1);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));

		rescuer(() -> false).rescue();

		assertThat(this.counting.reapLimits).hasSize(1);
		assertThat(count(JobState.AVAILABLE)).isEqualTo(Rescuer.BATCH);
		assertThat(count(JobState.ACTIVE)).isOne();
	}

	private Rescuer rescuer(BooleanSupplier running) {
		return new Rescuer(this.counting, NODE, new FailurePlanner(RetryDelayOverride.NONE, 20, TestPolicies.jobsOwn()),
				new OutcomeEvents(this.listener), (queue, due) -> this.retriesDue.add(Map.entry(queue, due)), running,
				VISIBILITY);
	}

	private Job claim(RetryPolicy policy) {
		this.store.add(TYPE, QUEUE, 0, policy, this.store.now());
		List<Job> claimed = this.store.claim(NODE, QUEUE, Map.of(TYPE, VISIBILITY), 1);
		assertThat(claimed).hasSize(1);
		return claimed.get(0);
	}

	private List<Job> claimMany(int count) {
		IntStream.range(0, count).forEach((i) -> this.store.add(TYPE, QUEUE, 0, POLICY, this.store.now()));
		List<Job> claimed = this.store.claim(NODE, QUEUE, Map.of(TYPE, VISIBILITY), count);
		assertThat(claimed).hasSize(count);
		return claimed;
	}

	private long count(JobState state) {
		return this.store.all().stream().filter((job) -> job.state() == state).count();
	}

	/** Records the limit of every reap. */
	static final class CountingStore extends ForwardingWorkerStore {

		final List<Integer> reapLimits = new CopyOnWriteArrayList<>();

		CountingStore(FakeWorkerStore delegate) {
			super(delegate);
		}

		@Override
		public List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide) {
			this.reapLimits.add(limit);
			return super.reapExpired(limit, decide);
		}

	}

}
