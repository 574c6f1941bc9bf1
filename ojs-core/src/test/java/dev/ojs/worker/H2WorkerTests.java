package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static dev.ojs.testsupport.Jobs.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AbstractWorkerTests} on H2, plus what does not depend on the database.
 */
class H2WorkerTests extends AbstractWorkerTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

	/**
	 * An outcome the completer could not write before the worker stopped is left to the
	 * reaper (spec §9.2): a worker started again must not go on heartbeating it, or the job
	 * would stay active forever.
	 */
	@Test
	void aRestartedWorkerDoesNotHeartbeatAttemptsItsLastRunLeftUnwritten() {
		AtomicBoolean completionsFail = new AtomicBoolean(true);
		JdbcJobStore store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings()) {

			@Override
			public Completed complete(List<Job> jobs, Map<String, String> results, boolean delete,
					List<Refill> refills) {
				if (completionsFail.get()) {
					throw new DataAccessResourceFailureException("database unreachable");
				}
				return super.complete(jobs, results, delete, refills);
			}

		};
		Worker worker = startWorker(new Worker(store,
				List.of(new HandlerRegistration(TYPE, "default", 0, Duration.ofSeconds(1), (attempt) -> {
				}, null, RetryPolicy.DEFAULT)), settings("node-1"), this.listener, RetryDelayOverride.NONE));
		String id = enqueue(job(TYPE).policy(quickRetries(3)));
		await().atMost(TIMEOUT).until(() -> this.listener.of(id).isEmpty() && this.store.find(id)
			.map((job) -> job.state() == JobState.ACTIVE && job.attempt() == 1)
			.orElse(false));
		worker.stop();
		completionsFail.set(false);
		worker.start();
		Job completed = awaitState(id, JobState.COMPLETED);
		assertThat(completed.attempt()).as("attempt 1 expired and was counted by the reaper").isEqualTo(2);
		assertThat(completed.errors()).singleElement().satisfies((error) -> assertThat(error.attempt()).isEqualTo(1));
	}

}
