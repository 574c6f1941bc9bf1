package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.JobError;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Heartbeater}: this node keeps the reservations of its running attempts (spec §9.3,
 * RET-13) by extending each one whose remaining time dropped below two thirds of its
 * visibility timeout to now plus that timeout, one store call per timeout, and marks the
 * attempts whose reservation is gone (reaped, §9.2) so they are not heartbeated again.
 */
class HeartbeaterTests {

	private static final String NODE = "node-1";

	private static final Duration SHORT = Duration.ofSeconds(30);

	private static final Duration LONG = Duration.ofSeconds(45);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RecordingStore recording = new RecordingStore(this.store);

	private final LocalAttempts attempts = new LocalAttempts();

	/** Ids of the jobs whose heartbeat events were delivered (ojs-events.md §4.1 job.heartbeat). */
	private final List<String> beatEvents = new CopyOnWriteArrayList<>();

	private final Heartbeater heartbeater = new Heartbeater(this.recording, NODE, this.attempts, SHORT,
			new OutcomeEvents(new JobListener() {

				@Override
				public void heartbeat(Job job, Instant visibleUntil) {
					HeartbeaterTests.this.beatEvents.add(job.id());
				}

			}));

	@Test
	void reservationWithPlentyLeftIsNotExtended() {
		LocalAttempt attempt = claim("short.job", SHORT);
		Instant lockedUntil = attempt.lockedUntil();
		// 21s of 30s left: more than two thirds
		this.store.clock.advance(Duration.ofSeconds(9));

		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).isEmpty();
		assertThat(this.beatEvents).isEmpty();
		assertThat(attempt.lockedUntil()).isEqualTo(lockedUntil);
		assertThat(this.store.get(attempt.id()).lockedUntil()).isEqualTo(lockedUntil);
	}

	@Test
	void reservationBelowTwoThirdsIsExtendedToNowPlusTheTimeoutRet13() {
		LocalAttempt attempt = claim("short.job", SHORT);
		// 19s of 30s left
		this.store.clock.advance(Duration.ofSeconds(11));
		Instant extended = this.store.now().plus(SHORT);

		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).containsExactly(new Heartbeat(NODE, List.of(attempt.id()), extended));
		assertThat(this.beatEvents).containsExactly(attempt.id());
		assertThat(attempt.lockedUntil()).isEqualTo(extended);
		assertThat(this.store.get(attempt.id()).lockedUntil()).isEqualTo(extended);
		assertThat(attempt.isReservationLost()).isFalse();

		// extended: plenty left again
		this.store.clock.advance(Duration.ofSeconds(9));
		this.heartbeater.heartbeat();
		assertThat(this.recording.heartbeats).hasSize(1);
	}

	@Test
	void heartbeatedReservationOutlivesItsFirstExpiryRet13() {
		LocalAttempt attempt = claim("short.job", SHORT);
		for (int i = 0; i < 6; i++) {
			this.store.clock.advance(Duration.ofSeconds(11));
			this.heartbeater.heartbeat();
		}

		// 66s after the claim, far past the first 30s reservation: nothing to reap
		assertThat(this.store.reapExpired(10, (job) -> {
			throw new AssertionError("reaped " + job.id());
		})).isEmpty();
		assertThat(this.store.get(attempt.id()).state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.recording.heartbeats).hasSize(6);
	}

	@Test
	void dueAttemptsAreExtendedInOneStoreCallPerTimeout() {
		LocalAttempt short1 = claim("short.job", SHORT);
		LocalAttempt short2 = claim("short.job", SHORT);
		LocalAttempt long1 = claim("long.job", LONG);
		LocalAttempt long2 = claim("long.job", LONG);
		// short ones have 10s of 30s left, long ones 25s of 45s: all below two thirds
		this.store.clock.advance(Duration.ofSeconds(20));
		LocalAttempt fresh = claim("short.job", SHORT);
		Instant now = this.store.now();

		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).hasSize(2);
		assertThat(this.recording.heartbeats).anySatisfy((heartbeat) -> {
			assertThat(heartbeat.ids()).containsExactlyInAnyOrder(short1.id(), short2.id());
			assertThat(heartbeat.lockedUntil()).isEqualTo(now.plus(SHORT));
		});
		assertThat(this.recording.heartbeats).anySatisfy((heartbeat) -> {
			assertThat(heartbeat.ids()).containsExactlyInAnyOrder(long1.id(), long2.id());
			assertThat(heartbeat.lockedUntil()).isEqualTo(now.plus(LONG));
		});
		assertThat(this.recording.heartbeats).allSatisfy((heartbeat) -> assertThat(heartbeat.nodeId()).isEqualTo(NODE));
		assertThat(this.store.get(long2.id()).lockedUntil()).isEqualTo(now.plus(LONG));
		assertThat(this.store.get(short2.id()).lockedUntil()).isEqualTo(now.plus(SHORT));
		// claimed just now: a full timeout left
		assertThat(this.recording.heartbeats).noneSatisfy((heartbeat) -> assertThat(heartbeat.ids()).contains(fresh.id()));
		// all still held: no need to look for lost reservations
		assertThat(this.recording.reservationChecks).isZero();
	}

	@Test
	void attemptWhoseReservationIsGoneIsMarkedLostAndNotHeartbeatedAgain() {
		LocalAttempt lost = claim("short.job", SHORT);
		LocalAttempt held = claim("short.job", SHORT);
		// the reservation was reaped and the job claimed again by another node
		this.store.put(StoredJobs.from(this.store.get(lost.id())).lockedBy("node-2").build());
		this.store.clock.advance(Duration.ofSeconds(11));

		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).singleElement()
			.satisfies((heartbeat) -> assertThat(heartbeat.ids()).containsExactlyInAnyOrder(lost.id(), held.id()));
		assertThat(this.recording.reservationChecks).isOne();
		assertThat(lost.isReservationLost()).isTrue();
		assertThat(held.isReservationLost()).isFalse();
		assertThat(this.store.get(lost.id()).lockedBy()).isEqualTo("node-2");

		this.store.clock.advance(Duration.ofSeconds(11));
		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).hasSize(2);
		assertThat(this.recording.heartbeats.get(1).ids()).containsExactly(held.id());
	}

	@Test
	void attemptRecordedAsFailedByTheRescuerIsMarkedLost() {
		LocalAttempt attempt = claim("short.job", SHORT);
		// the node stalled past the reservation and a rescuer recorded the attempt (§9.2)
		this.store.clock.advance(SHORT.plusSeconds(1));
		FailurePlanner planner = new FailurePlanner(RetryDelayOverride.NONE, 20, TestPolicies.jobsOwn());
		assertThat(this.store.reapExpired(10, (job) -> planner.planTimeout(job, this.store.now()).attemptFailure()))
			.hasSize(1);

		this.heartbeater.heartbeat();

		assertThat(attempt.isReservationLost()).isTrue();
		assertThat(this.store.get(attempt.id()).state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.store.get(attempt.id()).lockedUntil()).isNull();
	}

	@Test
	void attemptWhoseJobWasCancelledIsMarkedCancelledNotLost() {
		LocalAttempt attempt = claim("short.job", SHORT);
		// ojs-core.md §7.6: cancelled while it runs; the row is no longer active
		assertThat(this.store.cancel(attempt.id())).isTrue();
		this.store.clock.advance(Duration.ofSeconds(11));

		this.heartbeater.heartbeat();

		assertThat(attempt.isCancelled()).isTrue();
		assertThat(attempt.isReservationLost()).isFalse();

		this.store.clock.advance(Duration.ofSeconds(11));
		this.heartbeater.heartbeat();

		assertThat(this.recording.heartbeats).hasSize(1);
		assertThat(this.store.get(attempt.id()).state()).isEqualTo(JobState.CANCELLED);
	}

	/** A job of {@code type} added and claimed by {@link #NODE} now, tracked as running here. */
	private LocalAttempt claim(String type, Duration visibility) {
		this.store.add(type, "default");
		List<Job> claimed = this.store.claim(NODE, "default", Map.of(type, visibility), 1);
		assertThat(claimed).hasSize(1);
		HandlerRegistration registration = new HandlerRegistration(type, "default", 0, visibility, (attempt) -> {
		}, (job, failure) -> JobError.of(failure), RetryPolicy.DEFAULT);
		LocalAttempt attempt = new LocalAttempt(claimed.get(0), registration, visibility, "default", this.store);
		assertThat(attempt.transition(LocalAttempt.CLAIMED, LocalAttempt.RUNNING)).isTrue();
		return this.attempts.track(attempt);
	}

	record Heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
	}

	/** Records every heartbeat call and counts reservation checks. */
	static final class RecordingStore extends ForwardingWorkerStore {

		final List<Heartbeat> heartbeats = new CopyOnWriteArrayList<>();

		volatile int reservationChecks;

		RecordingStore(FakeWorkerStore delegate) {
			super(delegate);
		}

		@Override
		public int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
			this.heartbeats.add(new Heartbeat(nodeId, List.copyOf(ids), lockedUntil));
			return super.heartbeat(nodeId, ids, lockedUntil);
		}

		@Override
		public synchronized List<Job> reservationsHeld(List<Job> jobs) {
			this.reservationChecks++;
			return super.reservationsHeld(jobs);
		}

	}

}
