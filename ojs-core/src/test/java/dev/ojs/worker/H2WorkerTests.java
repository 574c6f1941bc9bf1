package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcWorkflowStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.testsupport.TestDatabases;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

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
	 * A chain's step hands its slot to the next job of its queue only while the queue has no
	 * backlog ({@link Refills}): with jobs waiting, the poller claims them in batches and the
	 * step's completion claims nothing; once they are gone, the later steps' completions do.
	 */
	@Test
	void chainStepsHandTheirSlotsOverOnlyWithoutABacklog() {
		List<Boolean> withBacklog = new CopyOnWriteArrayList<>();
		List<Boolean> withoutBacklog = new CopyOnWriteArrayList<>();
		JdbcJobStore store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings()) {

			@Override
			public Completed complete(List<Job> jobs, Map<String, String> results, boolean delete,
					List<Refill> refills) {
				if (jobs.stream().anyMatch((job) -> job.workflowPlace() != null)) {
					Long waiting = new JdbcTemplate(H2WorkerTests.this.schema.dataSource()).queryForObject(
							"SELECT count(*) FROM " + H2WorkerTests.this.schema.tableName() + " WHERE state = 'available'",
							Long.class);
					(waiting > 50 ? withBacklog : withoutBacklog).add(!refills.isEmpty());
				}
				return super.complete(jobs, results, delete, refills);
			}

		};
		String chain = chain(store, 6);
		for (int i = 0; i < 200; i++) {
			enqueue(job(TYPE));
		}
		startWorker(new Worker(store, List.of(handler(TYPE, (attempt) -> Thread.sleep(2))), settings("node-1", 8),
				this.listener, RetryDelayOverride.NONE));
		JdbcWorkflowStore workflows = new JdbcWorkflowStore(store);
		await().atMost(TIMEOUT)
			.until(() -> workflows.find(chain).orElseThrow().state() == WorkflowState.COMPLETED);
		assertThat(withBacklog).as("the first step, completed among 200 jobs waiting").isNotEmpty().doesNotContain(true);
		assertThat(withoutBacklog).as("the steps after it, each made available behind the backlog").contains(true);
	}

	/** Stores a chain of {@code steps} jobs of {@link #TYPE} in the default queue, as the workflows service does. */
	private String chain(JdbcJobStore store, int steps) {
		Instant now = Instant.now();
		String id = JobIds.newId(now);
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < steps; i++) {
			jobs.add(new NewJob(TYPE, "default", 0, "[]", "{}", null, null, null, 1, i > 0, null)
				.inWorkflow(id, new WorkflowPlace(WorkflowType.CHAIN.value(), WorkflowPlace.STEP, i)));
		}
		new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource())).executeWithoutResult((status) -> {
			List<String> ids = store.insert(jobs);
			List<WorkflowJob> members = new ArrayList<>();
			for (int i = 0; i < ids.size(); i++) {
				members.add(new WorkflowJob(ids.get(i), TYPE, WorkflowRole.STEP, i, null));
			}
			new JdbcWorkflowStore(store).create(
					new Workflow(id, WorkflowType.CHAIN, "test", WorkflowState.RUNNING, steps, 0, 0, "{}", now, null), members);
		});
		return id;
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
