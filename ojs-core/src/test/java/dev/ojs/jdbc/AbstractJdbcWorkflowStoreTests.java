package dev.ojs.jdbc;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.MutableClock;
import dev.ojs.worker.WorkerStore;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Workflows in the JDBC store (spec README decisions 26–32): the advance in the transaction
 * of each job's end, run against each database by a subclass.
 */
abstract class AbstractJdbcWorkflowStoreTests extends DatabaseTests {

	static final String NODE = "node-a";

	static final Map<String, Duration> TYPES = Map.of("wf.step", Duration.ofSeconds(30), "wf.callback",
			Duration.ofSeconds(30));

	MutableClock clock;

	JdbcJobStore store;

	JdbcWorkflowStore workflows;

	private ExecutorService executor;

	@BeforeEach
	void setUp() {
		this.schema.clear();
		this.clock = MutableClock.startingNow();
		this.store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		this.workflows = new JdbcWorkflowStore(this.store);
		this.executor = Executors.newFixedThreadPool(4);
	}

	@AfterEach
	void tearDown() {
		this.executor.shutdownNow();
	}

	/** Decisions 28 and 31: each step is activated by the previous one's completion, with the results before it. */
	@Test
	void chainActivatesEachStepWithTheResultsBeforeIt() {
		String id = create(WorkflowType.CHAIN, 3, List.of());
		assertThat(states(id)).containsExactly(JobState.AVAILABLE, JobState.PENDING, JobState.PENDING);
		complete(claimOne("steps"), "{\"n\": 0}");
		Job second = claimOne("steps");
		assertThat(second.parentResultsJson().replace(" ", "")).isEqualTo("[{\"n\":0}]");
		complete(second, null);
		Job third = claimOne("steps");
		assertThat(third.parentResultsJson().replace(" ", "")).isEqualTo("[{\"n\":0},null]");
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.RUNNING);
		complete(third, "3");
		Workflow done = this.workflows.find(id).orElseThrow();
		assertThat(done.state()).isEqualTo(WorkflowState.COMPLETED);
		assertThat(done.completed()).isEqualTo(3);
		assertThat(done.finishedAt()).isEqualTo(this.clock.instant());
	}

	/**
	 * A chain's step hands its slot to the next step: the completion's refill claims it in the
	 * completion's transaction, started at the instant the step completed, and no worker is
	 * woken for it; a step whose successor no refill took wakes its queue's workers as before.
	 * The creation's own wake is awaited first: on PostgreSQL its {@code NOTIFY}, sent after the
	 * commit by the store's notifier thread, could otherwise arrive during the completion.
	 */
	@Test
	void aChainStepsCompletionClaimsTheNextStepInItsTransaction() throws Exception {
		List<String> woken = new CopyOnWriteArrayList<>();
		try (AutoCloseable listening = this.store.listenForInserts(woken::add).orElseThrow()) {
			boolean notifies = this.store.dialect().inserts().notifyChannel() != null;
			if (notifies) {
				// the listener's connection listens
				org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> woken.contains(null));
			}
			String id = create(WorkflowType.CHAIN, 3, List.of());
			long creationWakes = notifies ? 2 : 1;
			org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> woken.stream().filter("steps"::equals).count() == creationWakes);
			woken.clear();
			Job first = claimOne("steps");
			this.clock.advance(Duration.ofMillis(40));
			WorkerStore.Completed completed = this.store.complete(List.of(first), Map.of(), false,
					List.of(new WorkerStore.Refill(NODE, "steps", TYPES, 1)));
			assertThat(completed.claimed()).singleElement().satisfies((next) -> assertThat(next).extracting(Job::id)
				.containsExactly(stepJob(id, 1)));
			Job second = this.store.find(stepJob(id, 1)).orElseThrow();
			assertThat(second.state()).isEqualTo(JobState.ACTIVE);
			assertThat(second.lockedBy()).isEqualTo(NODE);
			assertThat(second.startedAt()).isEqualTo(this.store.find(first.id()).orElseThrow().completedAt());
			assertThat(woken).as("the next step was claimed where it was activated").doesNotContain("steps");

			complete(second, null);
			assertThat(woken).as("no refill took the third step").contains("steps");
			assertThat(claimOne("steps").id()).isEqualTo(stepJob(id, 2));
		}
	}

	/**
	 * A chain's step that succeeded starts the next one without the chain's row: the step
	 * completes while another transaction holds that row, and the chain's counters are counted
	 * from its steps until its last step ends it, under the row's lock, and writes them.
	 */
	@Test
	void aChainsStepStartsTheNextWithoutTheChainsRow() throws Exception {
		String id = create(WorkflowType.CHAIN, 3, List.of());
		Job first = claimOne("steps");
		try (Connection other = this.schema.dataSource().getConnection()) {
			other.setAutoCommit(false);
			other.createStatement().executeQuery("SELECT id FROM " + workflowsTable() + " FOR UPDATE").close();
			CompletableFuture.runAsync(() -> complete(first, "1")).get(20, TimeUnit.SECONDS);
			other.rollback();
		}
		assertThat(states(id)).containsExactly(JobState.COMPLETED, JobState.AVAILABLE, JobState.PENDING);
		assertThat(this.workflows.find(id).orElseThrow().completed()).isEqualTo(1);
		assertThat(storedCounters(id)).as("the row as stored").containsExactly(0, 0);
		complete(claimOne("steps"), null);
		Workflow running = this.workflows.list(null, WorkflowType.CHAIN, null, 10).get(0);
		assertThat(running.state()).isEqualTo(WorkflowState.RUNNING);
		assertThat(running.completed()).isEqualTo(2);
		complete(claimOne("steps"), null);
		assertThat(this.workflows.find(id).orElseThrow()).extracting(Workflow::state, Workflow::completed)
			.containsExactly(WorkflowState.COMPLETED, 3);
		assertThat(storedCounters(id)).containsExactly(3, 0);
	}

	/**
	 * Decision 32 with a chain's step ending at the same moment: whichever of the cancel and
	 * the step's start of the next writes the next step first, it ends cancelled and never
	 * runs, and the chain ends cancelled.
	 */
	@Test
	void aChainCancelledAsItsStepCompletesNeverRunsTheNextStep() throws Exception {
		for (boolean cancelFirst : List.of(true, false)) {
			String id = create(WorkflowType.CHAIN, 3, List.of());
			Job first = claimOne("steps");
			CountDownLatch written = new CountDownLatch(1);
			CountDownLatch commit = new CountDownLatch(1);
			TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
			JdbcJobStore held = new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(), (call) -> {
				if (call.method().getName().equals("commit")) {
					written.countDown();
					commit.await();
				}
				return call.proceed();
			}), this.schema.settings(), this.clock);
			Future<?> firstWriter = this.executor.submit(cancelFirst
					? () -> tx.executeWithoutResult((status) -> {
						assertThat(this.workflows.cancel(id)).isTrue();
						written.countDown();
						await(commit);
					}) : () -> held.complete(List.of(first), Map.of(), false));
			assertThat(written.await(20, TimeUnit.SECONDS)).isTrue();
			Future<?> secondWriter = this.executor.submit(cancelFirst
					? () -> this.store.complete(List.of(first), Map.of(), false) : () -> this.workflows.cancel(id));
			Thread.sleep(300);
			assertThat(secondWriter).as("waits for the next step's row").isNotDone();
			commit.countDown();
			firstWriter.get(20, TimeUnit.SECONDS);
			secondWriter.get(20, TimeUnit.SECONDS);
			assertThat(states(id)).as("cancel first: %s", cancelFirst)
				.containsExactly(JobState.COMPLETED, JobState.CANCELLED, JobState.CANCELLED);
			assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.CANCELLED);
			assertThat(claim("steps", 10)).isEmpty();
		}
	}

	/** Decision 29: a step that ends without success fails the chain; later steps are cancelled, never enqueued. */
	@Test
	void chainFailsAtADiscardedStepAndCancelsTheRest() {
		String id = create(WorkflowType.CHAIN, 3, List.of());
		complete(claimOne("steps"), null);
		discard(claimOne("steps"));
		Workflow failed = this.workflows.find(id).orElseThrow();
		assertThat(failed.state()).isEqualTo(WorkflowState.FAILED);
		assertThat(failed.completed()).isEqualTo(1);
		assertThat(failed.failed()).isEqualTo(1);
		assertThat(states(id)).containsExactly(JobState.COMPLETED, JobState.DISCARDED, JobState.CANCELLED);
		assertThat(claim("steps", 10)).isEmpty();
	}

	/** A step's job cancelled on its own ends the step without success (decision 29). */
	@Test
	void cancelledStepJobFailsTheChain() {
		String id = create(WorkflowType.CHAIN, 2, List.of());
		assertThat(this.store.cancel(stepJob(id, 0))).isTrue();
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.FAILED);
		assertThat(states(id)).containsExactly(JobState.CANCELLED, JobState.CANCELLED);
	}

	/** A retryable failure is not an end: the chain waits for the retry. */
	@Test
	void retryableFailureDoesNotAdvance() {
		String id = create(WorkflowType.CHAIN, 2, List.of());
		Job first = claimOne("steps");
		this.store.fail(List.of(new AttemptFailure(first, JobState.RETRYABLE, this.clock.instant().plusSeconds(60),
				List.of(error(first)), false, this.clock.instant())));
		assertThat(this.workflows.find(id).orElseThrow().failed()).isZero();
		assertThat(states(id)).containsExactly(JobState.RETRYABLE, JobState.PENDING);
	}

	/** Decisions 29, 30: a batch's callbacks fire once every job ended, by outcome, with the jobs' results. */
	@Test
	void batchFiresItsCallbacksByOutcome() {
		String id = create(WorkflowType.BATCH, 2,
				List.of(WorkflowRole.ON_SUCCESS, WorkflowRole.ON_FAILURE, WorkflowRole.ON_COMPLETE));
		List<Job> jobs = claim("steps", 2);
		complete(jobs.get(0), "\"ok\"");
		assertThat(claim("callbacks", 10)).isEmpty();
		discard(jobs.get(1));
		List<Job> callbacks = claim("callbacks", 10);
		assertThat(callbacks).hasSize(2);
		assertThat(callbacks).allSatisfy((callback) -> assertThat(callback.parentResultsJson().replace(" ", ""))
			.isEqualTo(jobs.get(0).id().equals(stepJob(id, 0)) ? "[\"ok\",null]" : "[null,\"ok\"]"));
		assertThat(this.workflows.jobs(id).stream().filter((job) -> job.role() != WorkflowRole.STEP))
			.extracting(WorkflowJob::role, WorkflowJob::state)
			.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(WorkflowRole.ON_SUCCESS, JobState.CANCELLED),
					org.assertj.core.groups.Tuple.tuple(WorkflowRole.ON_FAILURE, JobState.ACTIVE),
					org.assertj.core.groups.Tuple.tuple(WorkflowRole.ON_COMPLETE, JobState.ACTIVE));
		assertThat(this.workflows.find(id).orElseThrow().state()).as("running while callbacks run")
			.isEqualTo(WorkflowState.RUNNING);
		complete(callbacks.get(0), null);
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.RUNNING);
		complete(callbacks.get(1), null);
		assertThat(this.workflows.find(id).orElseThrow().state()).as("a job failed").isEqualTo(WorkflowState.FAILED);
	}

	/** Decision 29: a group is completed once all its jobs succeeded. */
	@Test
	void groupCompletesWhenEveryJobSucceeded() {
		String id = create(WorkflowType.GROUP, 3, List.of());
		List<Job> jobs = claim("steps", 3);
		complete(jobs.get(0), null);
		complete(jobs.get(1), null);
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.RUNNING);
		complete(jobs.get(2), null);
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.COMPLETED);
	}

	/** A job that expires before it runs ends its step without success. */
	@Test
	void expiredStepFailsItsGroup() {
		String id = create(WorkflowType.GROUP, 1, List.of());
		this.clock.advance(Duration.ofMinutes(2));
		assertThat(this.store.expire(10)).hasSize(1);
		assertThat(this.workflows.find(id).orElseThrow().state()).isEqualTo(WorkflowState.FAILED);
	}

	/** Decision 32: cancel stops jobs not started; an active one finishes but never advances the workflow. */
	@Test
	void cancelStopsWaitingStepsAndActiveOnesNeverAdvance() {
		String id = create(WorkflowType.CHAIN, 3, List.of());
		Job first = claimOne("steps");
		assertThat(this.workflows.cancel(id)).isTrue();
		assertThat(this.workflows.cancel(id)).as("already cancelled").isFalse();
		complete(first, "1");
		Workflow cancelled = this.workflows.find(id).orElseThrow();
		assertThat(cancelled.state()).isEqualTo(WorkflowState.CANCELLED);
		assertThat(cancelled.completed()).isZero();
		assertThat(states(id)).containsExactly(JobState.COMPLETED, JobState.CANCELLED, JobState.CANCELLED);
		assertThat(this.workflows.cancel(JobIds.newId(this.clock.instant()))).isFalse();
	}

	/**
	 * Decision 30: four stores end the last four jobs of one batch at the same moment, round
	 * after round; each time exactly one {@code on_complete} callback is activated.
	 */
	@Test
	void batchCallbackFiresExactlyOnceUnderConcurrentEnds() throws Exception {
		List<JdbcJobStore> stores = List.of(this.store, newStore(), newStore(), newStore());
		for (int round = 0; round < 100; round++) {
			String id = create(WorkflowType.BATCH, 4, List.of(WorkflowRole.ON_COMPLETE));
			List<Job> jobs = claim("steps", 4);
			assertThat(jobs).hasSize(4);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> ends = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				JdbcJobStore store = stores.get(i);
				Job job = jobs.get(i);
				ends.add(this.executor.submit(() -> {
					start.await();
					return store.complete(List.of(job), Map.of(job.id(), "1"), false);
				}));
			}
			start.countDown();
			for (Future<?> end : ends) {
				assertThat(end.get(30, TimeUnit.SECONDS)).isNotNull();
			}
			Workflow workflow = this.workflows.find(id).orElseThrow();
			assertThat(workflow.completed()).as("round %d", round).isEqualTo(4);
			assertThat(claim("callbacks", 10)).as("round %d", round).hasSize(1);
			assertThat(states(id)).as("round %d", round).containsOnly(JobState.COMPLETED);
		}
	}

	/** A job read says where it stands in its workflow: type, role and step, from its own row. */
	@Test
	void jobsCarryTheirPlaceInTheirWorkflow() {
		String chain = create(WorkflowType.CHAIN, 2, List.of());
		Job first = claimOne("steps");
		assertThat(first.workflowId()).isEqualTo(chain);
		assertThat(first.workflowPlace()).isEqualTo(new WorkflowPlace("chain", "step", 0));
		complete(first, null);
		assertThat(claimOne("steps").workflowPlace()).isEqualTo(new WorkflowPlace("chain", "step", 1));
		String batch = create(WorkflowType.BATCH, 1, List.of(WorkflowRole.ON_COMPLETE));
		Job callback = this.store.find(this.workflows.jobs(batch)
			.stream()
			.filter((job) -> job.role() == WorkflowRole.ON_COMPLETE)
			.findFirst()
			.orElseThrow()
			.jobId()).orElseThrow();
		assertThat(callback.workflowPlace()).isEqualTo(new WorkflowPlace("batch", "on_complete", 0));
		assertThat(callback.workflowPlace().isCallback()).isTrue();
		String plain = this.store.insert(List.of(new NewJob("wf.step", "plain", 0, "[]", "{}", null, null, null, 1,
				false, null, JobIds.newId(this.clock.instant()), null)))
			.get(0);
		Job read = this.store.find(plain).orElseThrow();
		assertThat(read.workflowId()).isNull();
		assertThat(read.workflowPlace()).isNull();
	}

	/**
	 * The end of a step takes its role and step from the job as claimed, and a cancel of a
	 * job reads its row once: neither reads the job's row by id again.
	 */
	@Test
	void advanceReadsNoJobRowAndCancelReadsItOnce() {
		List<String> reads = new CopyOnWriteArrayList<>();
		String byId = "FROM " + this.schema.settings().tableName() + " WHERE id";
		JdbcJobStore recording = new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			if (call.sql() != null && call.sql().startsWith("SELECT") && call.sql().contains(byId)) {
				reads.add(call.sql());
			}
			return call.proceed();
		}), this.schema.settings(), this.clock);
		String id = create(WorkflowType.CHAIN, 3, List.of());
		Job first = claimOne("steps");
		assertThat(recording.complete(List.of(first), Map.of(first.id(), "1"), false)).containsExactly(first.id());
		assertThat(reads).as("reads of a job row by id in the advance").isEmpty();
		assertThat(states(id)).containsExactly(JobState.COMPLETED, JobState.AVAILABLE, JobState.PENDING);
		assertThat(recording.cancel(stepJob(id, 1))).isTrue();
		assertThat(reads).as("reads of the cancelled job's row").hasSize(1);
		Workflow failed = this.workflows.find(id).orElseThrow();
		assertThat(failed.state()).isEqualTo(WorkflowState.FAILED);
		assertThat(failed.failed()).isEqualTo(1);
		assertThat(states(id)).containsExactly(JobState.COMPLETED, JobState.CANCELLED, JobState.CANCELLED);
	}

	/**
	 * Decisions 28 and 31: steps of many chains that end together activate each chain's next
	 * step with its own results, all in a constant number of statements, not one per chain.
	 */
	@Test
	void chainStepsEndingTogetherActivateTheirNextStepsTogether() {
		List<String> activations = new CopyOnWriteArrayList<>();
		JdbcJobStore recording = new JdbcJobStore(new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			if (call.sql() != null && call.sql().contains("workflow_role")) {
				activations.add(call.sql());
			}
			return call.proceed();
		}), this.schema.settings(), this.clock);
		List<String> chains = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			chains.add(create(WorkflowType.CHAIN, 3, List.of()));
		}
		List<Job> firsts = claim("steps", 100);
		assertThat(firsts).hasSize(12);
		Map<String, String> results = new java.util.HashMap<>();
		// each chain's first step returns its chain's id, so a result handed to another chain shows
		firsts.forEach((job) -> results.put(job.id(), "\"" + job.workflowId() + "\""));
		assertThat(recording.complete(firsts, results, false)).hasSize(12);
		assertThat(activations).as("statements of the activations").hasSizeLessThanOrEqualTo(2);
		List<Job> seconds = claim("steps", 100);
		assertThat(seconds).hasSize(12);
		for (Job second : seconds) {
			assertThat(second.argsJson().replace(" ", "")).isEqualTo("[1]");
			assertThat(chains).contains(second.workflowId().toLowerCase(java.util.Locale.ROOT));
		}
		for (String chain : chains) {
			assertThat(states(chain)).containsExactly(JobState.COMPLETED, JobState.ACTIVE, JobState.PENDING);
		}
		// each chain's second step carries its own first step's result, not another chain's
		assertThat(seconds).allSatisfy((second) -> assertThat(second.parentResultsJson().replace(" ", ""))
			.isEqualTo("[\"" + second.workflowId() + "\"]"));
	}

	/** A bulk cancel advances each workflow of the jobs it cancels, and cancels plain jobs among them. */
	@Test
	void bulkCancelAdvancesTheWorkflowsOfItsJobs() {
		String group = create(WorkflowType.GROUP, 2, List.of());
		String plain = this.store.insert(List.of(new NewJob("wf.step", "plain", 0, "[]", "{}", null, null, null, 1,
				false, null, JobIds.newId(this.clock.instant()), null)))
			.get(0);
		assertThat(this.store.cancel(List.of(stepJob(group, 0), stepJob(group, 1), plain))).isEqualTo(3);
		Workflow failed = this.workflows.find(group).orElseThrow();
		assertThat(failed.state()).isEqualTo(WorkflowState.FAILED);
		assertThat(failed.failed()).isEqualTo(2);
		assertThat(this.store.find(plain).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
	}

	/**
	 * Creating a workflow inserts its jobs with their workflow columns and then its row: per
	 * job only the insert, no read of a job by id and no update, so a batch of many jobs runs
	 * as many statements as one of a few (given the insert's chunks).
	 */
	@Test
	void creatingAWorkflowRunsTheInsertsAndItsRowOnly() {
		List<String> statements = new CopyOnWriteArrayList<>();
		Thread creating = Thread.currentThread();
		DataSource recorded = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			// the creating call's statements; on PostgreSQL a NOTIFY follows each commit from a thread of its own
			if (call.sql() != null && Thread.currentThread() == creating) {
				statements.add(call.sql());
			}
			return call.proceed();
		});
		JdbcJobStore recording = new JdbcJobStore(recorded, this.schema.settings(), this.clock);
		JdbcWorkflowStore recordingWorkflows = new JdbcWorkflowStore(recording);
		String few = create(recorded, recording, recordingWorkflows, WorkflowType.BATCH, 3,
				List.of(WorkflowRole.ON_COMPLETE));
		List<String> forFew = List.copyOf(statements);
		statements.clear();
		String many = create(recorded, recording, recordingWorkflows, WorkflowType.BATCH, 400,
				List.of(WorkflowRole.ON_COMPLETE));
		List<String> forMany = List.copyOf(statements);
		statements.clear();
		String chain = create(recorded, recording, recordingWorkflows, WorkflowType.CHAIN, 400, List.of());
		assertThat(forFew).as("statements creating a batch of 3").hasSize(2);
		assertThat(forMany).as("statements creating a batch of 400").hasSameSizeAs(forFew);
		assertThat(statements).as("statements creating a chain of 400").hasSameSizeAs(forFew);
		for (List<String> run : List.of(forFew, forMany, statements)) {
			assertThat(run).allSatisfy((sql) -> assertThat(sql).contains("INSERT INTO")
				.doesNotStartWith("UPDATE")
				.doesNotStartWith("SELECT"));
		}
		assertThat(this.workflows.jobs(many)).hasSize(401)
			.allSatisfy((job) -> assertThat(this.store.find(job.jobId()).orElseThrow().workflowId()).isEqualTo(many));
		assertThat(this.workflows.jobs(few)).extracting(WorkflowJob::role, WorkflowJob::step)
			.containsExactly(tuple(WorkflowRole.STEP, 0), tuple(WorkflowRole.STEP, 1), tuple(WorkflowRole.STEP, 2),
					tuple(WorkflowRole.ON_COMPLETE, 0));
		assertThat(states(chain)).hasSize(400).startsWith(JobState.AVAILABLE, JobState.PENDING);
		assertThat(this.store.find(stepJob(chain, 399)).orElseThrow().workflowPlace())
			.isEqualTo(new WorkflowPlace("chain", "step", 399));
	}

	/** Another node's store on the same tables and clock. */
	JdbcJobStore newStore() {
		return new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
	}

	/** Stores a workflow of {@code steps} jobs and these callbacks, as the workflows service does. */
	String create(WorkflowType type, int steps, List<WorkflowRole> callbacks) {
		return create(this.schema.dataSource(), this.store, this.workflows, type, steps, callbacks);
	}

	/** {@link #create(WorkflowType, int, List)} through these stores, in one transaction on their data source. */
	String create(DataSource dataSource, JdbcJobStore jobStore, JdbcWorkflowStore workflowStore, WorkflowType type,
			int steps, List<WorkflowRole> callbacks) {
		Instant now = this.clock.instant();
		String id = JobIds.newId(now);
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < steps; i++) {
			jobs.add(new NewJob("wf.step", "steps", 0, "[" + i + "]", "{}", null, null, null, 1,
					type == WorkflowType.CHAIN && i > 0, now.plusSeconds(60))
				.inWorkflow(id, new WorkflowPlace(type.value(), WorkflowPlace.STEP, i)));
		}
		for (WorkflowRole role : callbacks) {
			jobs.add(new NewJob("wf.callback", "callbacks", 0, "[]", "{}", null, null, null, 1, true)
				.inWorkflow(id, new WorkflowPlace(type.value(), role.value(), 0)));
		}
		new TransactionTemplate(new DataSourceTransactionManager(dataSource))
			.executeWithoutResult((status) -> {
				List<String> ids = jobStore.insert(jobs);
				List<WorkflowJob> members = new ArrayList<>();
				for (int i = 0; i < ids.size(); i++) {
					members.add((i < steps) ? new WorkflowJob(ids.get(i), "wf.step", WorkflowRole.STEP, i, null)
							: new WorkflowJob(ids.get(i), "wf.callback", callbacks.get(i - steps), 0, null));
				}
				workflowStore.create(new Workflow(id, type, "test", WorkflowState.RUNNING, steps, 0, 0, "{}", now, null),
						members);
			});
		return id;
	}

	List<JobState> states(String id) {
		return this.workflows.jobs(id)
			.stream()
			.filter((job) -> job.role() == WorkflowRole.STEP)
			.map(WorkflowJob::state)
			.toList();
	}

	String stepJob(String id, int step) {
		return this.workflows.jobs(id).stream().filter((job) -> job.role() == WorkflowRole.STEP && job.step() == step)
			.findFirst()
			.orElseThrow()
			.jobId();
	}

	List<Job> claim(String queue, int limit) {
		return this.store.claim(NODE, queue, TYPES, limit);
	}

	Job claimOne(String queue) {
		List<Job> claimed = claim(queue, 1);
		assertThat(claimed).hasSize(1);
		return claimed.get(0);
	}

	void complete(Job job, String result) {
		assertThat(this.store.complete(List.of(job), (result != null) ? Map.of(job.id(), result) : Map.of(), false))
			.containsExactly(job.id());
	}

	void discard(Job job) {
		assertThat(this.store.fail(List.of(new AttemptFailure(job, JobState.DISCARDED, null, List.of(error(job)), false,
				this.clock.instant())))).containsExactly(job.id());
	}

	ErrorEntry error(Job job) {
		return new ErrorEntry(job.attempt(), "handler_error", "failed", ErrorCode.RETRY, this.clock.instant(), Map.of());
	}

	String workflowsTable() {
		return this.schema.settings().workflowsTableName();
	}

	/** The workflow's counters as its row holds them. */
	List<Integer> storedCounters(String id) {
		return jdbc().queryForObject("SELECT completed, failed FROM " + workflowsTable()
				+ " WHERE LOWER(CAST(id AS CHAR(36))) = ?", (rs, rowNum) -> List.of(rs.getInt(1), rs.getInt(2)), id);
	}

	static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	JdbcTemplate jdbc() {
		return new JdbcTemplate(this.schema.dataSource());
	}

}
