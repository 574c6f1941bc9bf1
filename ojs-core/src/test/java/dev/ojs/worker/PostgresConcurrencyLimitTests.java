package dev.ojs.worker;

import java.time.Duration;
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
 * {@link AbstractConcurrencyLimitTests} on PostgreSQL, where the end of a limited queue's job
 * wakes the pollers of other nodes too (through NOTIFY).
 */
class PostgresConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	/**
	 * A job of a queue limited to 1 ends on another node after the worker's poller found no free
	 * slot for 1.5 s: the worker starts its job within 300 ms of that end, not at its next look,
	 * which its idle time, doubling from 5 ms towards the poll interval, puts up to 1.28 s later.
	 */
	@Test
	void aJobsEndOnAnotherNodeWakesThePoller() {
		AtomicLong started = new AtomicLong();
		JdbcJobStore worker = startWorker((attempt) -> started.set(System.nanoTime()), Duration.ofSeconds(5));
		worker.setConcurrency(QUEUE, 1);
		JdbcJobStore other = this.schema.newStore();
		other.insert(List.of(job("other.job").queue(QUEUE).build()));
		List<Job> holding = other.claim("other-node", QUEUE, Map.of("other.job", Duration.ofMinutes(5)), 1);
		assertThat(holding).hasSize(1);
		String id = worker.insert(List.of(job(TYPE).queue(QUEUE).build())).get(0);
		assertThat(fromEndToStart(Duration.ofMillis(1500), started::get, () -> other.complete(holding, false)))
			.isLessThan(Duration.ofMillis(300));
		assertThat(worker.find(id)).isPresent();
	}

}
