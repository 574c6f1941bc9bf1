package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

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
