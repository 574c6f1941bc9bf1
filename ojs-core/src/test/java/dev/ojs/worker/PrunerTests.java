package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link Pruner}: each run asks the store to delete finished jobs past the configured
 * {@link RetentionSettings} within {@link Pruner#BUDGET} (the dead letter side of retention
 * is the store's, spec §16). The fake store implements only the completed-jobs rule.
 */
class PrunerTests {

	private static final String NODE = "node-1";

	private static final String TYPE = "test.job";

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RetentionSettings retention = new RetentionSettings(Duration.ofHours(1), Duration.ofDays(2),
			Duration.ofDays(30), 500, Duration.ofMinutes(5));

	@Test
	void pruneAsksTheStoreWithTheRetentionAndTheBudget() {
		RecordingStore recording = new RecordingStore(this.store);

		new Pruner(recording, NODE, this.retention).prune();
		new Pruner(recording, NODE, this.retention).prune();

		assertThat(recording.budgets).containsExactly(Pruner.BUDGET, Pruner.BUDGET);
		assertThat(this.store.prunes).hasSize(2).allSatisfy((asked) -> assertThat(asked).isSameAs(this.retention));
	}

	@Test
	void completedJobsOlderThanTheRetentionAreDeleted() {
		Pruner pruner = new Pruner(this.store, NODE, this.retention);
		Job old = complete();
		this.store.clock.advance(Duration.ofMinutes(30));
		Job recent = complete();
		Job waiting = this.store.add(TYPE, "default");
		this.store.clock.advance(Duration.ofMinutes(31));

		pruner.prune();

		assertThat(this.store.get(old.id())).isNull();
		assertThat(this.store.get(recent.id()).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.store.get(waiting.id()).state()).isEqualTo(JobState.AVAILABLE);

		this.store.clock.advance(Duration.ofMinutes(30));
		pruner.prune();

		assertThat(this.store.get(recent.id())).isNull();
		assertThat(this.store.all()).extracting(Job::id).containsExactly(waiting.id());
	}

	@Test
	void completedJobsWithinTheRetentionAreKept() {
		Job completed = complete();
		this.store.clock.advance(Duration.ofMinutes(59));

		new Pruner(this.store, NODE, this.retention).prune();

		assertThat(this.store.get(completed.id()).state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void storeFailureReachesTheCallerWhichLogsAndRunsAgainLater() {
		RecordingStore failing = new RecordingStore(this.store) {

			@Override
			public long prune(RetentionSettings retention, Duration budget) {
				throw new IllegalStateException("database down");
			}

		};

		// PeriodicTask logs it and the next run prunes as planned
		assertThatIllegalStateException().isThrownBy(() -> new Pruner(failing, NODE, this.retention).prune())
			.withMessage("database down");
	}

	/** A job claimed and completed now. */
	private Job complete() {
		Job added = this.store.add(TYPE, "default");
		List<Job> claimed = this.store.claim(NODE, "default", Map.of(TYPE, Duration.ofSeconds(30)), 1);
		assertThat(claimed).extracting(Job::id).containsExactly(added.id());
		assertThat(this.store.complete(claimed, false)).containsExactly(added.id());
		return this.store.get(added.id());
	}

	/** Records the budget of every prune. */
	/** A slice that used its whole budget stopped with rows left: the next one follows in the same run. */
	@Test
	void slicesFollowEachOtherWhileEachUsesItsWholeBudget() {
		AtomicLong nanos = new AtomicLong();
		List<Long> slices = new ArrayList<>(List.of(1000L, 1000L, 1000L, 40L));
		RecordingStore behind = new RecordingStore(this.store) {

			@Override
			public long prune(RetentionSettings retention, Duration budget) {
				super.prune(retention, budget);
				long deleted = slices.remove(0);
				// a full slice runs out its budget; the last one finds no more rows in less
				nanos.addAndGet((deleted == 1000L) ? budget.toNanos() : budget.toNanos() / 10);
				return deleted;
			}

		};

		new Pruner(behind, NODE, this.retention, nanos::get).prune();

		assertThat(behind.budgets).hasSize(4);
		assertThat(slices).isEmpty();
	}

	/** However far behind, one run prunes for at most half the prune interval. */
	@Test
	void aRunStopsAtHalfTheInterval() {
		AtomicLong nanos = new AtomicLong();
		RecordingStore neverDone = new RecordingStore(this.store) {

			@Override
			public long prune(RetentionSettings retention, Duration budget) {
				super.prune(retention, budget);
				nanos.addAndGet(budget.toNanos());
				return 1000;
			}

		};

		new Pruner(neverDone, NODE, this.retention, nanos::get).prune();

		// half of the 5 minute interval, in slices of one budget
		assertThat(neverDone.budgets).hasSize((int) (this.retention.pruneInterval().dividedBy(2).toNanos()
				/ Pruner.BUDGET.toNanos()));
	}

	static class RecordingStore extends ForwardingWorkerStore {

		final List<Duration> budgets = new CopyOnWriteArrayList<>();

		RecordingStore(FakeWorkerStore delegate) {
			super(delegate);
		}

		@Override
		public long prune(RetentionSettings retention, Duration budget) {
			this.budgets.add(budget);
			return super.prune(retention, budget);
		}

	}

}
