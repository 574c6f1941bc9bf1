package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Expirer}: a job whose {@code expires_at} passes before it runs becomes
 * {@code discarded} with {@code discarded_at} and no {@code completed_at}, never executed
 * (ojs-conformance.md L2-TTL-001, L2-TTL-002; ojs-core.md {@code expires_at}; decision 17);
 * a started job runs on. Driven through {@link Expirer#expire()} on a {@link FakeWorkerStore}
 * whose clock only moves when told.
 */
class ExpirerTests {

	private static final String NODE = "node-1";

	private static final String TYPE = "test.job";

	private static final String QUEUE = "emails";

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RecordingListener listener = new RecordingListener();

	private Expirer expirer() {
		return new Expirer(this.store, NODE, new OutcomeEvents(this.listener), () -> true);
	}

	@Test
	void expiredJobIsDiscardedWithDiscardedAtAndNoCompletedAtL2Ttl002() {
		Job job = this.store.addExpiring(TYPE, QUEUE, this.store.now().plusSeconds(5));
		this.store.clock.advance(Duration.ofSeconds(5));
		Instant now = this.store.now();

		expirer().expire();

		Job stored = this.store.get(job.id());
		assertThat(stored.state()).isEqualTo(JobState.DISCARDED);
		assertThat(stored.discardedAt()).isEqualTo(now);
		assertThat(stored.completedAt()).isNull();
		assertThat(stored.startedAt()).isNull();
		assertThat(stored.attempt()).isZero();
		assertThat(stored.deadLetter()).isFalse();
		// expiry is no failed attempt: the error history stays empty
		assertThat(stored.errors()).isEmpty();
		assertThat(this.listener.kinds(job.id())).containsExactly("discarded");
		RecordingListener.Event event = this.listener.of(job.id()).get(0);
		assertThat(event.error().type()).isEqualTo(Expirer.ERROR_TYPE);
		assertThat(event.error().code()).isEqualTo(ErrorCode.DISCARD);
	}

	@Test
	void jobNotYetExpiredAndJobWithoutExpiryAreUntouched() {
		Job later = this.store.addExpiring(TYPE, QUEUE, this.store.now().plusSeconds(5));
		Job never = this.store.add(TYPE, QUEUE);
		this.store.clock.advance(Duration.ofMillis(4_999));

		expirer().expire();

		assertThat(this.store.get(later.id()).state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.store.get(never.id()).state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.listener.kinds(later.id())).isEmpty();
	}

	@Test
	void expiredJobIsNeverClaimedL2Ttl001() {
		this.store.addExpiring(TYPE, QUEUE, this.store.now().plusSeconds(1));
		this.store.clock.advance(Duration.ofSeconds(2));

		// before any sweep: the claim passes over it
		assertThat(this.store.claim(NODE, QUEUE, Map.of(TYPE, Duration.ofSeconds(30)), 10)).isEmpty();
	}

	@Test
	void startedJobIsNotExpiredMidRun() {
		Job job = this.store.addExpiring(TYPE, QUEUE, this.store.now().plusSeconds(5));
		Job claimed = this.store.claim(NODE, QUEUE, Map.of(TYPE, Duration.ofSeconds(30)), 1).get(0);
		assertThat(claimed.id()).isEqualTo(job.id());
		this.store.clock.advance(Duration.ofSeconds(10));

		expirer().expire();

		Job stored = this.store.get(job.id());
		assertThat(stored.state()).isEqualTo(JobState.ACTIVE);
		assertThat(stored.discardedAt()).isNull();
		assertThat(this.listener.kinds(job.id())).isEmpty();
	}

	@Test
	void runWorksThroughBatchesUpToItsLimit() {
		int jobs = Expirer.BATCH * Expirer.MAX_BATCHES + 5;
		IntStream.range(0, jobs).forEach((i) -> this.store.addExpiring(TYPE, QUEUE, this.store.now()));

		expirer().expire();

		assertThat(this.store.expireLimits).hasSize(Expirer.MAX_BATCHES).allMatch((limit) -> limit == Expirer.BATCH);
		assertThat(this.store.all().stream().filter((job) -> job.state() == JobState.DISCARDED))
			.hasSize(Expirer.BATCH * Expirer.MAX_BATCHES);

		expirer().expire();

		assertThat(this.store.all()).allMatch((job) -> job.state() == JobState.DISCARDED);
	}

	@Test
	void runStopsAfterAFullBatchWhenTheWorkerStops() {
		IntStream.range(0, Expirer.BATCH * 2).forEach((i) -> this.store.addExpiring(TYPE, QUEUE, this.store.now()));

		new Expirer(this.store, NODE, new OutcomeEvents(this.listener), () -> false).expire();

		assertThat(this.store.expireLimits).hasSize(1);
	}

	@Test
	void checksAtLeastOnceASecondDecision17() {
		assertThat(Expirer.INTERVAL).isLessThanOrEqualTo(Duration.ofMillis(500));
	}

}
