package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractSequenceTests} on PostgreSQL, where the end of a job of a sequence wakes the
 * pollers of other nodes too (through NOTIFY).
 */
class PostgresSequenceTests extends AbstractSequenceTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	/**
	 * A job of a sequence ends on another node, 5.5 s after the worker's poller first found the
	 * next job of its key held: with a poll interval of 30 s the worker starts that job within
	 * 2 s of the end, not at its next look, which its idle time, doubling from 5 ms towards the
	 * poll interval, puts about 10.2 s after it started.
	 */
	@Test
	void theEndOfAJobOnAnotherNodeStartsTheNextOfItsSequenceThere() {
		AtomicLong started = new AtomicLong();
		startWorker((attempt) -> started.set(System.nanoTime()), Duration.ofSeconds(30));
		JdbcJobStore other = this.schema.newStore();
		List<String> ids = other.insert(List.of(seq("other.job", "a"), seq("a")));
		List<Job> holding = other.claim("other-node", QUEUE, Map.of("other.job", Duration.ofMinutes(5)), 1);
		assertThat(holding).extracting(Job::id).containsExactly(ids.get(0));
		assertThat(fromEndToStart(Duration.ofMillis(5500), started::get, () -> other.complete(holding, false)))
			.as("from the end to the next start").isLessThan(Duration.ofSeconds(2));
	}

	/**
	 * A cancel on another node of the waiting head of a sequence (due in ten minutes) starts the
	 * next job of its key on the worker within 2 s, with a poll interval of 30 s (through NOTIFY).
	 */
	@Test
	void aCancelOnAnotherNodeStartsTheNextOfItsSequenceThere() {
		AtomicLong started = new AtomicLong();
		startWorker((attempt) -> started.set(System.nanoTime()), Duration.ofSeconds(30));
		JdbcJobStore other = this.schema.newStore();
		List<String> ids = other.insert(List.of(job(TYPE).queue(QUEUE).sequenceKey("a")
			.runAt(Instant.now().plus(Duration.ofMinutes(10))).build(), seq("a")));
		assertThat(fromEndToStart(Duration.ofMillis(5500), started::get, () -> assertThat(other.cancel(ids.get(0))).isTrue()))
			.as("from the cancel to the next start").isLessThan(Duration.ofSeconds(2));
	}

}
