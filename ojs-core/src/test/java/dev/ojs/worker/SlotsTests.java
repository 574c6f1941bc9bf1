package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handler slots of a queue: a claim takes a job per free handler, plus the jobs its busy
 * handlers are expected to reach within {@value Slots#PREFETCH_HORIZON_MILLIS} ms, on a
 * controllable nanosecond clock.
 */
class SlotsTests {

	private static final int CONCURRENCY = 32;

	/** The most the busy handlers of 20 µs jobs are expected to reach within the horizon. */
	private static final int PREFETCH = Slots.PREFETCH_FACTOR * CONCURRENCY;

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final HandlerRegistration registration = new HandlerRegistration("t", "default", 0, null, (attempt) -> {
	}, null, RetryPolicy.DEFAULT);

	private final List<ClaimGroup> groups = ClaimGroup.of(List.of(this.registration), Duration.ofMinutes(1));

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	private final Slots slots = new Slots(Map.of("default", CONCURRENCY), this.groups, this.nanos::get);

	@Test
	void aJobPerFreeHandlerUntilAHandlerReturnedAndForLongJobs() {
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY);
		returnHandlers(1, Duration.ofSeconds(1));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY);
		claim(CONCURRENCY);
		assertThat(this.slots.free("default")).isZero();
	}

	@Test
	void shortJobsAreClaimedAheadOfTheBusyHandlersUpToEightTimesTheConcurrency() {
		returnHandlers(8, Duration.ofNanos(20_000));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY + PREFETCH).isEqualTo(9 * CONCURRENCY);
		claim(CONCURRENCY + PREFETCH);
		assertThat(this.slots.free("default")).isZero();
		assertThat(this.slots.running("default")).as("handlers running, not jobs waiting for one").isEqualTo(CONCURRENCY);
	}

	@Test
	void thePrefetchIsWhatTheBusyHandlersReachWithinTheHorizon() {
		// 32 handlers of 50 ms reach 3.2 jobs in 5 ms
		returnHandlers(1, Duration.ofMillis(50));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY + 3);
	}

	@Test
	void noPrefetchWhileTheHandlersRunAndNoneReturnedWithinTheHorizon() {
		returnHandlers(8, Duration.ofNanos(20_000));
		claim(CONCURRENCY / 2);
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY / 2 + PREFETCH);
		// the jobs turned long: nothing returned for longer than the horizon
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(Slots.PREFETCH_HORIZON_MILLIS + 1));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY / 2);
	}

	/** ojs-worker-protocol.md §8.2: no fetch while the active jobs equal the concurrency. */
	@Test
	void noClaimWhileEveryHandlerIsBusy() {
		returnHandlers(8, Duration.ofNanos(20_000));
		claim(CONCURRENCY);
		assertThat(this.slots.free("default")).isZero();
		this.slots.handlerReturned(attempt(), true, 20_000);
		assertThat(this.slots.free("default")).isEqualTo(1 + PREFETCH);
	}

	@Test
	void theAverageFollowsTheLatestHandlers() {
		returnHandlers(1, Duration.ofNanos(20_000));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY + PREFETCH);
		// 1-second jobs: each return moves the average an eighth of the way, to about 125 ms after
		// the first (32 x 5 ms / 125 ms: one job ahead), then towards a second
		returnHandlers(1, Duration.ofSeconds(1));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY + 1);
		returnHandlers(3, Duration.ofSeconds(1));
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY);
	}

	@Test
	void atMostTheConcurrencyOfOutcomesWaitForTheCompleter() {
		returnHandlers(8, Duration.ofNanos(20_000));
		claim(CONCURRENCY + PREFETCH);
		// every handler returned, every outcome waits for the completer: n + prefetch held of 2n + prefetch
		for (int i = 0; i < CONCURRENCY + PREFETCH; i++) {
			this.slots.handlerReturned(attempt(), true, 20_000);
		}
		assertThat(this.slots.free("default")).isEqualTo(CONCURRENCY);
		claim(CONCURRENCY);
		assertThat(this.slots.free("default")).as("2n + prefetch reservations at most").isZero();
	}

	/**
	 * A refill and the poller take from one count: racing for the free slots, together they
	 * never take more than are free, and what a claim does not use comes back.
	 */
	@Test
	void takersRacingForFreeSlotsNeverTakeMoreThanAreFree() throws Exception {
		int threads = 8;
		AtomicInteger taken = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> takers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread taker = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				for (int j = 0; j < CONCURRENCY; j++) {
					taken.addAndGet(this.slots.take("default", 1));
				}
			});
			taker.start();
			takers.add(taker);
		}
		start.countDown();
		for (Thread taker : takers) {
			taker.join();
		}
		assertThat(taken.get()).isEqualTo(CONCURRENCY);
		assertThat(this.slots.free("default")).isZero();
		this.slots.untake("default", 3);
		assertThat(this.slots.free("default")).isEqualTo(3);
		assertThat(this.slots.take("default", 5)).isEqualTo(3);
	}

	private void claim(int jobs) {
		assertThat(this.slots.take("default", jobs)).as("free slots taken").isEqualTo(jobs);
		this.slots.claimed(this.groups.get(0), jobs, jobs);
		this.slots.started("default", jobs);
	}

	/** Claims {@code count} jobs whose handlers return after {@code took}, their outcomes written. */
	private void returnHandlers(int count, Duration took) {
		for (int i = 0; i < count; i++) {
			claim(1);
			this.nanos.addAndGet(took.toNanos());
			LocalAttempt attempt = attempt();
			this.slots.handlerReturned(attempt, true, took.toNanos());
			this.slots.free(attempt);
		}
	}

	private LocalAttempt attempt() {
		return new LocalAttempt(this.store.add("t", "default"), this.registration, Duration.ofMinutes(1), "default",
				this.store);
	}

}
