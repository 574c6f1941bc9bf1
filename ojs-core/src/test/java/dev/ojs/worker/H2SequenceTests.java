package dev.ojs.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractSequenceTests} on H2.
 */
class H2SequenceTests extends AbstractSequenceTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

	/**
	 * Which outcomes wake the pollers of a queue without a limit: the end of a job of a sequence
	 * in a terminal state (completed, dead-lettered, discarded by the rescuer, expired), which
	 * lets the next job of its key run; not a retry, which holds its sequence, nor the end of a
	 * job without a key. Decided from the jobs in memory, the same on every database; here the
	 * store tells its own listeners only (no NOTIFY), as they are told.
	 */
	@Test
	void onlyTheEndOfAJobOfASequenceWakesThePollersOfAQueueWithoutALimit() throws Exception {
		JdbcJobStore store = store();
		store.insert(List.of(plain(), seq("a"), seq("b"), seq("c"), seq("d"), job(TYPE).queue(QUEUE).sequenceKey("e")
			.runAt(this.clock.instant().plusSeconds(60)).expiresAt(this.clock.instant().plusSeconds(30)).build()));
		List<String> told = new CopyOnWriteArrayList<>();
		try (AutoCloseable listening = store.listenForInserts(told::add).orElseThrow()) {
			Map<String, Job> claimed = new HashMap<>();
			for (Job job : store.claim("n", QUEUE, Map.of(TYPE, Duration.ofSeconds(10)), 20)) {
				claimed.put((job.sequenceKey() != null) ? job.sequenceKey() : "none", job);
			}
			assertThat(claimed).as("a claim carries each job's sequence key").containsOnlyKeys("none", "a", "b", "c", "d");

			store.complete(List.of(claimed.get("none")), false);
			store.fail(List.of(failure(claimed.get("b"), JobState.RETRYABLE)));
			assertThat(told).as("a job without a key, and a retry").isEmpty();

			store.complete(List.of(claimed.get("a")), false);
			assertThat(told).as("completed").containsExactly(QUEUE);
			store.fail(List.of(failure(claimed.get("c"), JobState.DISCARDED)));
			assertThat(told).as("dead-lettered").containsExactly(QUEUE, QUEUE);
			this.clock.advance(Duration.ofSeconds(11));
			assertThat(store.reapExpired(10, (job) -> new AttemptFailure(job, JobState.DISCARDED, null, List.of(), false,
					this.clock.instant()))).hasSize(1);
			assertThat(told).as("discarded by the rescuer").containsExactly(QUEUE, QUEUE, QUEUE);
			this.clock.advance(Duration.ofSeconds(20));
			assertThat(store.expire(10)).hasSize(1);
			assertThat(told).as("expired").containsExactly(QUEUE, QUEUE, QUEUE, QUEUE);
		}
	}

	/**
	 * Which cancels wake the pollers (the same rule as for other ends, decided from the jobs the
	 * cancel read): one that lets a job run, of a job of a sequence or of an active job of a
	 * limited queue, whose slot it frees; not of a job without a key that waited, nor of an
	 * active one of a queue without a limit, nor of a job already ended.
	 */
	@Test
	void aCancelWakesThePollersWhereItLetsAJobRun() throws Exception {
		JdbcJobStore store = store();
		store.insert(List.of(plain(), plain()));
		List<String> active = ids(store.claim("n", QUEUE, VISIBILITY, 2));
		assertThat(active).hasSize(2);
		List<String> waiting = store.insert(List.of(plain(), plain(), seq("a"), seq("b")));
		List<String> told = new CopyOnWriteArrayList<>();
		try (AutoCloseable listening = store.listenForInserts(told::add).orElseThrow()) {
			assertThat(store.cancel(waiting.get(0))).isTrue();
			assertThat(store.cancel(active.get(0))).isTrue();
			assertThat(told).as("a waiting job without a key, an active job of a queue without a limit").isEmpty();

			store.setConcurrency(QUEUE, 5);
			assertThat(store.cancel(waiting.get(1))).isTrue();
			assertThat(told).as("a waiting job of a limited queue holds no slot").isEmpty();
			assertThat(store.cancel(active.get(1))).isTrue();
			assertThat(told).as("an active job of a limited queue").containsExactly(QUEUE);
			assertThat(store.cancel(List.of(waiting.get(2), waiting.get(3), active.get(1)))).isEqualTo(2);
			assertThat(told).as("jobs of sequences, cancelled together").containsExactly(QUEUE, QUEUE);
			assertThat(store.cancel(waiting.get(2))).isFalse();
			assertThat(told).as("a job already ended").containsExactly(QUEUE, QUEUE);
		}
	}

}
