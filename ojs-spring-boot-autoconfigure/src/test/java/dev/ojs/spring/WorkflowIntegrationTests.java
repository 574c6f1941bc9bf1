package dev.ojs.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.event.EventListener;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.spring.event.OjsWorkflowEvent;
import dev.ojs.spring.event.WorkflowFailedEvent;
import dev.ojs.spring.event.WorkflowStartedEvent;
import dev.ojs.spring.event.WorkflowStepCompletedEvent;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link OjsWorkflows} with the in-process worker (spec README decisions 25–30): chains pass
 * their results through {@link JobContext#parentResults(Class)}, batches fire their callbacks,
 * creation joins the caller's transaction. Subclasses choose the database.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, WorkflowIntegrationTests.RecordedEvents.class })
@DirtiesContext
abstract class WorkflowIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private OjsWorkflows workflows;

	@Autowired
	private IntegrationJobs jobs;

	@Autowired
	private OjsJobs ojsJobs;

	@Autowired
	private PlatformTransactionManager transactionManager;

	@Autowired
	private RecordedEvents events;

	/** Decision 28: a step's return value is its result; a later step reads the results before it, typed. */
	@Test
	void chainPassesResultsToLaterSteps() {
		String id = this.workflows.chain("results", List.of(step("it.wf.produce", 1), step("it.wf.produce", 2),
				step("it.wf.consume")));
		OjsWorkflows.WorkflowInfo done = awaitEnd(id);
		assertThat(done.workflow().state()).isEqualTo(WorkflowState.COMPLETED);
		assertThat(done.workflow().completed()).isEqualTo(3);
		String consumer = done.jobs().get(2).jobId();
		assertThat(this.jobs.calls(consumer))
			.containsExactly(List.of(new IntegrationJobs.Produced(1), new IntegrationJobs.Produced(2)));
		// each step's handler sees its place, claimed with its job (ojs.workflow.type and .step)
		assertThat(done.jobs()).extracting((job) -> this.jobs.places.get(job.jobId()))
			.containsExactly(new WorkflowPlace("chain", "step", 0), new WorkflowPlace("chain", "step", 1),
					new WorkflowPlace("chain", "step", 2));
	}

	/**
	 * A step's completion claims the chain's next step in its own transaction (its slot handed
	 * over), so that step starts at the instant the step before it completed. The hand-over
	 * takes a free slot, which the queue's poller holds while a claim of its own is under way
	 * (then the poller claims the step once woken), so this asserts it for one step of seven at
	 * least; the store's tests check each hand-over.
	 */
	@Test
	void aChainsStepStartsAsTheStepBeforeItCompletes() {
		List<OjsTemplate.Enqueue> steps = new ArrayList<>();
		for (int i = 1; i <= 8; i++) {
			steps.add(step("it.wf.produce", i));
		}
		OjsWorkflows.WorkflowInfo done = awaitEnd(this.workflows.chain("hand-over", steps));
		assertThat(done.workflow().state()).isEqualTo(WorkflowState.COMPLETED);
		List<Job> jobs = done.jobs().stream().map((job) -> this.ojsJobs.find(job.jobId()).orElseThrow()).toList();
		int handedOver = 0;
		for (int i = 1; i < jobs.size(); i++) {
			assertThat(jobs.get(i).startedAt()).as("step " + i + " started once step " + (i - 1) + " completed")
				.isAfterOrEqualTo(jobs.get(i - 1).completedAt());
			handedOver += jobs.get(i).startedAt().equals(jobs.get(i - 1).completedAt()) ? 1 : 0;
		}
		assertThat(handedOver).as("steps started at the instant the step before completed").isPositive();
	}

	/** Decision 29: a failed step fails the chain; the steps after it never run. */
	@Test
	void chainStopsAtAFailedStep() {
		String id = this.workflows.chain("stops", List.of(step("it.wf.produce", -1), step("it.wf.consume")));
		OjsWorkflows.WorkflowInfo failed = awaitEnd(id);
		assertThat(failed.workflow().state()).isEqualTo(WorkflowState.FAILED);
		assertThat(failed.jobs()).extracting(WorkflowJob::state).containsExactly(JobState.DISCARDED, JobState.CANCELLED);
		assertThat(failed.failedJobs()).hasSize(1);
		assertThat(this.jobs.calls(failed.jobs().get(1).jobId())).isEmpty();
	}

	/** Decisions 28, 30: a batch's callback runs once every job ended, with the jobs' results. */
	@Test
	void batchCallbackGetsTheResultsOfItsJobs() {
		String id = this.workflows
			.batch("callbacks", List.of(step("it.wf.produce", 1), step("it.wf.produce", 2), step("it.wf.produce", 3)))
			.onSuccess(step("it.wf.consume"))
			.onFailure(step("it.wf.consume"))
			.enqueue();
		OjsWorkflows.WorkflowInfo done = awaitEnd(id);
		assertThat(done.workflow().state()).isEqualTo(WorkflowState.COMPLETED);
		WorkflowJob onSuccess = callback(done, WorkflowRole.ON_SUCCESS);
		assertThat(onSuccess.state()).isEqualTo(JobState.COMPLETED);
		assertThat(callback(done, WorkflowRole.ON_FAILURE).state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.jobs.calls(onSuccess.jobId())).containsExactly(List.of(new IntegrationJobs.Produced(1),
				new IntegrationJobs.Produced(2), new IntegrationJobs.Produced(3)));
	}

	/** Decision 30: on_complete and on_failure run when a job failed, on_success never. */
	@Test
	void batchWithAFailedJobRunsOnCompleteAndOnFailure() {
		String id = this.workflows.batch("failing", List.of(step("it.wf.produce", 1), step("it.wf.produce", -1)))
			.onSuccess(step("it.wf.consume"))
			.onFailure(step("it.wf.consume"))
			.onComplete(step("it.wf.consume"))
			.enqueue();
		OjsWorkflows.WorkflowInfo done = awaitEnd(id);
		assertThat(done.workflow().state()).isEqualTo(WorkflowState.FAILED);
		assertThat(callback(done, WorkflowRole.ON_SUCCESS).state()).isEqualTo(JobState.CANCELLED);
		assertThat(callback(done, WorkflowRole.ON_FAILURE).state()).isEqualTo(JobState.COMPLETED);
		assertThat(callback(done, WorkflowRole.ON_COMPLETE).state()).isEqualTo(JobState.COMPLETED);
		List<Object> results = new ArrayList<>();
		results.add(new IntegrationJobs.Produced(1));
		results.add(null);
		assertThat(this.jobs.calls(callback(done, WorkflowRole.ON_COMPLETE).jobId())).containsExactly(results);
		assertThat(this.jobs.places.get(callback(done, WorkflowRole.ON_COMPLETE).jobId()))
			.isEqualTo(new WorkflowPlace("batch", "on_complete", 0));
	}

	/** A workflow created in the caller's transaction is gone with its rollback: jobs and row. */
	@Test
	void creationJoinsTheCallersTransaction() {
		List<String> ids = new ArrayList<>();
		new TransactionTemplate(this.transactionManager).executeWithoutResult((status) -> {
			ids.add(this.workflows.group("rolled-back", List.of(step("it.wf.produce", 1))));
			assertThat(this.workflows.find(ids.get(0))).isPresent();
			status.setRollbackOnly();
		});
		assertThat(this.workflows.find(ids.get(0))).isEmpty();
	}

	/** Decision 25: the workflow's own rules, and each job refused by its place. */
	@Test
	void refusesEmptyWorkflowsCallbacksOutsideABatchAndInvalidJobs() {
		assertThatExceptionOfType(OjsValidationException.class).isThrownBy(() -> this.workflows.chain("empty", List.of()))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("steps"));
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.workflows.create(WorkflowType.GROUP, "cb", List.of(step("it.wf.produce", 1)),
					Map.of(WorkflowRole.ON_COMPLETE, step("it.wf.consume")), Map.of()))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("callbacks"));
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.workflows.group("bad", List.of(step("it.wf.produce", 1), step("Not A Type"))))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("jobs[1].type"));
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.workflows.batch("bad", List.of(step("it.wf.produce", 1)),
					Map.of(WorkflowRole.ON_COMPLETE, step("Not A Type"))))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("callbacks.on_complete.type"));
	}

	/** From Java a workflow may hold more jobs than one HTTP batch enqueue (decision 18's 1,000), up to MAX_JOBS. */
	@Test
	void javaBatchesHoldMoreJobsThanAnHttpBatchEnqueue() {
		String id = this.workflows.group("large", Collections.nCopies(OjsWorkflows.MAX_STEPS + 500,
				step("it.wf.produce", 1)));
		assertThat(this.workflows.find(id)).hasValueSatisfying((info) -> {
			assertThat(info.workflow().total()).isEqualTo(1500);
			assertThat(info.jobs()).hasSize(1500);
		});
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> OjsWorkflows.checkSize("jobs", OjsWorkflows.MAX_JOBS + 1, OjsWorkflows.MAX_JOBS))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("jobs"));
	}

	/** ojs-events.md §3.5: one event per transition, after its commit; a failure names its step and error. */
	@Test
	void publishesEachTransitionOnce() {
		String done = this.workflows.chain("events", List.of(step("it.wf.produce", 1), step("it.wf.produce", 2)));
		String failed = this.workflows.chain("events-failing", List.of(step("it.wf.produce", -1), step("it.wf.consume")));
		awaitEnd(done);
		awaitEnd(failed);
		await().atMost(TIMEOUT).until(() -> this.events.of(failed).size() == 2 && this.events.of(done).size() == 4);
		assertThat(this.events.of(done)).extracting((event) -> event.getClass().getSimpleName())
			.containsExactly("WorkflowStartedEvent", "WorkflowStepCompletedEvent", "WorkflowStepCompletedEvent",
					"WorkflowCompletedEvent");
		WorkflowStepCompletedEvent last = (WorkflowStepCompletedEvent) this.events.of(done).get(2);
		assertThat(last.getStep().step()).isEqualTo(1);
		assertThat(last.getStepsRemaining()).isZero();
		assertThat(this.events.of(done).get(3).getWorkflow().state()).isEqualTo(WorkflowState.COMPLETED);
		assertThat(this.events.of(failed).get(0)).isInstanceOf(WorkflowStartedEvent.class);
		WorkflowFailedEvent failure = (WorkflowFailedEvent) this.events.of(failed).get(1);
		assertThat(failure.getFailedStep().step()).isZero();
		assertThat(failure.getError()).isNotNull();
	}

	/** Workflow events of this context, in the order they were published. */
	static class RecordedEvents {

		private final List<OjsWorkflowEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(OjsWorkflowEvent event) {
			this.events.add(event);
		}

		List<OjsWorkflowEvent> of(String workflowId) {
			return this.events.stream().filter((event) -> event.getWorkflow().id().equals(workflowId)).toList();
		}

	}

	private static OjsTemplate.Enqueue step(String type, Object... args) {
		return new OjsTemplate.Enqueue(type, Arrays.asList(args), JobOptions.none());
	}

	private static WorkflowJob callback(OjsWorkflows.WorkflowInfo info, WorkflowRole role) {
		return info.jobs().stream().filter((job) -> job.role() == role).findFirst().orElseThrow();
	}

	private OjsWorkflows.WorkflowInfo awaitEnd(String id) {
		return await().atMost(TIMEOUT)
			.until(() -> this.workflows.find(id).orElseThrow(), (info) -> info.workflow().state().isTerminal());
	}

}
