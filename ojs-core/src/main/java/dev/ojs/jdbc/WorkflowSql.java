package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.jdbc.AdvanceSql.Activated;
import dev.ojs.jdbc.AdvanceSql.Activation;
import dev.ojs.jdbc.AdvanceSql.Counters;
import dev.ojs.jdbc.AdvanceSql.Pending;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowListener;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

/**
 * The SQL of workflows, the table {@code <prefix>workflows} and the workflow columns of the
 * job table. {@link #advance} runs in the transaction of the jobs' ends (spec README decision
 * 31): it locks the workflow's row by primary key, so two nodes ending the last jobs of one
 * batch at the same moment advance it one after the other, and each callback fires once.
 */
final class WorkflowSql extends SqlSupport {

	private static final String COLUMNS = "id, type, name, state, total, completed, failed, metadata, created_at,"
			+ " finished_at";

	/** States of a job that has not started and so is cancelled with its workflow. */
	private static final String NOT_STARTED = "'pending', 'scheduled', 'available', 'retryable'";

	private final String workflows;

	private final ResultSql results;

	private final InsertSql inserts;

	private final AdvanceSql writes;

	/** Joins the caller's transaction, else runs in one of its own. */
	private final TransactionTemplate joined;

	/** Told of each transition after its commit. */
	private volatile WorkflowListener listener = WorkflowListener.NONE;

	WorkflowSql(SqlSupport shared, ResultSql results, InsertSql inserts, AdvanceSql writes) {
		super(shared);
		this.joined = transaction(TransactionDefinition.PROPAGATION_REQUIRED, TransactionDefinition.ISOLATION_DEFAULT);
		this.workflows = shared.settings.workflowsTableName();
		this.results = results;
		this.inserts = inserts;
		this.writes = writes;
	}

	/** One job of a workflow that ended: succeeded or not. */
	record Ended(Job job, boolean succeeded) {

	}

	void listener(WorkflowListener listener) {
		this.listener = listener;
	}

	/**
	 * Inserts the workflow's row. Its jobs are inserted with its id and their places
	 * ({@link dev.ojs.job.NewJob#inWorkflow}), so no job row is written again here.
	 */
	void create(Workflow workflow) {
		AfterCommit.tell(() -> this.listener.onStarted(workflow));
		this.jdbc.update("INSERT INTO " + this.workflows + " (" + COLUMNS + ") VALUES (" + idParam()
				+ ", ?, ?, ?, ?, ?, ?, ?, ?, ?)", (ps) -> {
					ps.setString(1, workflow.id());
					ps.setString(2, workflow.type().value());
					ps.setString(3, workflow.name());
					ps.setString(4, workflow.state().value());
					ps.setInt(5, workflow.total());
					ps.setInt(6, workflow.completed());
					ps.setInt(7, workflow.failed());
					ps.setString(8, workflow.metadataJson());
					setInstant(ps, 9, workflow.createdAt());
					setInstant(ps, 10, workflow.finishedAt());
				});
	}

	Optional<Workflow> find(String id) {
		return countedChains(read(List.of(id), "")).stream().findFirst();
	}

	List<WorkflowJob> jobs(String id) {
		List<WorkflowJob> jobs = new ArrayList<>(this.jdbc.query("SELECT id, type, workflow_role, workflow_step, state FROM "
				+ this.table + " WHERE workflow_id = " + idParam(),
				(rs, rowNum) -> new WorkflowJob(rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getString(2),
						WorkflowRole.fromValue(rs.getString(3)), rs.getInt(4), JobState.fromValue(rs.getString(5))),
				id));
		jobs.sort(Comparator.comparing(WorkflowJob::role).thenComparingInt(WorkflowJob::step));
		return jobs;
	}

	/** Cancels a running workflow and its jobs that have not started, in the caller's transaction. */
	boolean cancel(String id, Instant now) {
		Workflow workflow = countedChains(lock(List.of(id))).stream().findFirst().orElse(null);
		if (workflow == null || workflow.state().isTerminal()) {
			return false;
		}
		cancelNotStarted(id, null, now);
		Pending pending = new Pending();
		finish(workflow, WorkflowState.CANCELLED, now, pending);
		this.writes.end(pending.ended());
		return true;
	}

	/**
	 * Cancels these jobs where they are live or pending ({@link JobSql#cancel}): locks and reads
	 * them, then ends them; those of workflows each end their step without success, in the same
	 * transaction.
	 * @return the jobs it cancelled, as they stood before (their state, queue, type and
	 * sequence key tell whom the cancel lets run)
	 */
	List<Job> cancelJobs(List<String> ids, Instant now, JobSql jobs) {
		List<Job> cancelled = this.joined.execute((status) -> {
			List<Job> cancellable = jobs.lockCancellable(ids);
			if (!cancellable.isEmpty()) {
				jobs.cancel(cancellable.stream().map(Job::id).toList(), now);
				// read before the cancel: what the advance uses does not change
				advance(cancellable.stream().filter((job) -> job.workflowId() != null).map((job) -> new Ended(job, false))
					.toList(), Map.of(), now);
			}
			return cancellable;
		});
		return (cancelled != null) ? cancelled : List.of();
	}

	/**
	 * Up to {@code limit} workflows, newest first, after the one with id {@code before} when
	 * given; {@code null} filters match all.
	 */
	List<Workflow> list(@Nullable WorkflowState state, @Nullable WorkflowType type, @Nullable String before,
			int limit) {
		WhereClause where = filter(state, type);
		if (before != null) {
			where.add("id < " + idParam(), before);
		}
		where.params.add(limit);
		return countedChains(this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.workflows + " WHERE "
				+ where.conditions() + " ORDER BY id DESC LIMIT ?", this::map, where.params.toArray()));
	}

	/** How many workflows match. */
	long count(@Nullable WorkflowState state, @Nullable WorkflowType type) {
		WhereClause where = filter(state, type);
		Long count = this.jdbc.queryForObject("SELECT count(*) FROM " + this.workflows + where.sql(), Long.class,
				where.params.toArray());
		return (count != null) ? count : 0;
	}

	private WhereClause filter(@Nullable WorkflowState state, @Nullable WorkflowType type) {
		WhereClause where = new WhereClause(this);
		where.and("state = ?", (state != null) ? state.value() : null);
		where.and("type = ?", (type != null) ? type.value() : null);
		return where;
	}

	/**
	 * Deletes up to {@code limit} ended workflows none of whose jobs is left: their jobs were
	 * pruned after their retention, so the workflow goes with them. Returns how many.
	 */
	int deleteEnded(int limit) {
		List<String> ids = this.jdbc.queryForList("SELECT w.id FROM " + this.workflows + " w WHERE w.state IN"
				+ " ('completed', 'failed', 'cancelled') AND NOT EXISTS (SELECT 1 FROM " + this.table
				+ " j WHERE j.workflow_id = w.id) ORDER BY w.id LIMIT ?", String.class, limit);
		if (ids.isEmpty()) {
			return 0;
		}
		return this.jdbc.update((con) -> {
			var ps = con.prepareStatement("DELETE FROM " + this.workflows + " WHERE id IN (" + idMarkers(ids.size())
					+ ")");
			bindValues(ps, 1, ids);
			return ps;
		});
	}

	/**
	 * Advances the workflows of these ended jobs, in the transaction of their ends. A chain
	 * whose step succeeded starts its next step ({@link #startNextSteps}); every other workflow
	 * is locked once, all of them by one statement in id order (so two transactions never wait
	 * for each other in a cycle), and its counters are written once, whatever the number of its
	 * jobs that ended together. Each job's role and step come with the job as read
	 * ({@link Job#workflowPlace()}).
	 */
	void advance(List<Ended> ended, Map<String, String> results, Instant now) {
		advance(ended, results, now, Set::of);
	}

	/**
	 * {@link #advance(List, Map, Instant)}, where the transaction also claims jobs after the
	 * advance: a chain's next step among them ({@code claimedHere}, their ids in lower case, read
	 * once it commits) wakes no worker.
	 */
	void advance(List<Ended> ended, Map<String, String> results, Instant now, Supplier<Set<String>> claimedHere) {
		Map<String, List<Ended>> byWorkflow = new TreeMap<>();
		for (Ended one : ended) {
			byWorkflow.computeIfAbsent(one.job().workflowId().toLowerCase(Locale.ROOT), (id) -> new ArrayList<>())
				.add(one);
		}
		startNextSteps(byWorkflow, results, now, claimedHere);
		if (byWorkflow.isEmpty()) {
			return;
		}
		Pending pending = new Pending();
		for (Workflow workflow : lock(new ArrayList<>(byWorkflow.keySet()))) {
			// a cancelled workflow: its active steps finish but never advance it (decision 32)
			if (!workflow.state().isTerminal()) {
				List<Ended> ends = byWorkflow.get(workflow.id());
				advance(chainCounted(workflow, ends), ends, results, now, pending);
			}
		}
		activate(pending.nextSteps(), now, claimedHere);
		List<Counters> counters = pending.countersOfRunning();
		if (!counters.isEmpty()) {
			this.writes.count(counters);
		}
		if (!pending.ended().isEmpty()) {
			this.writes.end(pending.ended());
		}
	}

	/**
	 * A chain's step that succeeded starts the next one without the chain's row: it is the only
	 * writer of the next, which a cancel makes {@code cancelled} whichever writes it first, and
	 * the chain's counters are counted from its steps until it ends ({@link #countedChains}).
	 * The chains started are taken off {@code byWorkflow}; a last step or an ended chain is not.
	 */
	private void startNextSteps(Map<String, List<Ended>> byWorkflow, Map<String, String> results, Instant now,
			Supplier<Set<String>> claimedHere) {
		Map<String, Ended> steps = new HashMap<>();
		List<Activation> nextSteps = new ArrayList<>();
		byWorkflow.forEach((id, ended) -> {
			Ended one = ended.get(0);
			WorkflowPlace place = one.job().workflowPlace();
			if (ended.size() == 1 && one.succeeded() && place != null && !place.isCallback()
					&& WorkflowType.CHAIN.value().equals(place.type())) {
				steps.put(id, one);
				nextSteps.add(new Activation(id, WorkflowRole.STEP, place.step() + 1,
						ResultSql.appended(one.job().parentResultsJson(), results.get(one.job().id()))));
			}
		});
		if (nextSteps.isEmpty()) {
			return;
		}
		List<Activated> activated = this.writes.activate(nextSteps, now);
		wake(activated, claimedHere);
		Set<String> started = new LinkedHashSet<>();
		activated.forEach((job) -> started.add(job.workflowId()));
		byWorkflow.keySet().removeAll(started);
		if (this.listener == WorkflowListener.NONE) {
			return;
		}
		for (Workflow chain : read(new ArrayList<>(started), "")) {
			Ended one = steps.get(chain.id());
			int step = one.job().workflowPlace().step();
			stepCompleted(withCounters(chain, step + 1, 0), one.job(), step, now);
		}
	}

	/**
	 * Advances one locked workflow by its jobs that ended; its new counters, its chain's next
	 * step and its end go to {@code pending}.
	 */
	private void advance(Workflow workflow, List<Ended> ended, Map<String, String> results, Instant now,
			Pending pending) {
		ended.sort(Comparator.comparing((Ended one) -> one.job().id()));
		Workflow counted = workflow;
		boolean callbackEnded = false;
		for (Ended one : ended) {
			WorkflowPlace place = one.job().workflowPlace();
			if (place == null || counted.state().isTerminal()) {
				continue;
			}
			if (place.isCallback()) {
				callbackEnded = true;
				continue;
			}
			boolean chain = workflow.type() == WorkflowType.CHAIN;
			if (!chain || !one.succeeded()) {
				// a chain's completed steps are counted from its steps, this one among them
				counted = counted(counted, one.succeeded());
			}
			if (one.succeeded()) {
				stepCompleted(counted, one.job(), place.step(), now);
			}
			if (chain) {
				counted = chainStepEnded(counted, one, place.step(), results.get(one.job().id()), now, pending);
			}
		}
		if (counted != workflow && workflow.type() != WorkflowType.CHAIN) {
			pending.counters().add(new Counters(workflow.id(), counted.completed(), counted.failed()));
		}
		if (workflow.type() != WorkflowType.CHAIN && !counted.state().isTerminal()
				&& counted.completed() + counted.failed() == counted.total() && counted != workflow) {
			allStepsEnded(counted, now, pending);
		}
		if (callbackEnded) {
			callbackEnded(counted, now, pending);
		}
	}

	/** The workflow with one more step counted, completed or failed. */
	private static Workflow counted(Workflow workflow, boolean succeeded) {
		return withCounters(workflow, workflow.completed() + (succeeded ? 1 : 0), workflow.failed() + (succeeded ? 0 : 1));
	}

	private static Workflow withCounters(Workflow workflow, int completed, int failed) {
		return new Workflow(workflow.id(), workflow.type(), workflow.name(), workflow.state(), workflow.total(),
				completed, failed, workflow.metadataJson(), workflow.createdAt(), workflow.finishedAt());
	}

	private void stepCompleted(Workflow counted, Job job, int step, Instant now) {
		WorkflowJob member = new WorkflowJob(job.id(), job.type(), WorkflowRole.STEP, step, JobState.COMPLETED);
		Duration took = (job.startedAt() != null) ? Duration.between(job.startedAt(), now) : Duration.ZERO;
		AfterCommit.tell(() -> this.listener.onStepCompleted(counted, member, took));
	}

	/**
	 * A chain's step ended: the next one is to start, or the chain ends (either to {@code pending});
	 * returns the chain as it now stands.
	 */
	private Workflow chainStepEnded(Workflow counted, Ended ended, int step, @Nullable String result, Instant now,
			Pending pending) {
		if (!ended.succeeded()) {
			// decision 29: later steps are never enqueued
			cancelNotStarted(counted.id(), null, now);
			return finish(counted, WorkflowState.FAILED, now, pending);
		}
		if (counted.completed() == counted.total()) {
			return finish(counted, WorkflowState.COMPLETED, now, pending);
		}
		pending.nextSteps().add(new Activation(counted.id(), WorkflowRole.STEP, step + 1,
				ResultSql.appended(ended.job().parentResultsJson(), result)));
		return counted;
	}

	/** Every step of a group or batch ended: the group ends; the batch fires its callbacks (decision 30). */
	private void allStepsEnded(Workflow counted, Instant now, Pending pending) {
		WorkflowState end = (counted.failed() == 0) ? WorkflowState.COMPLETED : WorkflowState.FAILED;
		if (counted.type() == WorkflowType.GROUP) {
			finish(counted, end, now, pending);
			return;
		}
		// decision 30: the batch's callbacks, each once; the others are never enqueued
		String jobResults = this.results.ofSteps(counted.id());
		int fired = activate(List.of(new Activation(counted.id(), WorkflowRole.ON_COMPLETE, 0, jobResults),
				new Activation(counted.id(), (counted.failed() == 0) ? WorkflowRole.ON_SUCCESS : WorkflowRole.ON_FAILURE, 0,
						jobResults)), now, Set::of);
		cancelNotStarted(counted.id(), "pending", now);
		if (fired == 0) {
			finish(counted, end, now, pending);
		}
	}

	/** A callback ended: once none runs any more, the batch ends, completed only if all succeeded. */
	private void callbackEnded(Workflow workflow, Instant now, Pending pending) {
		List<String> states = this.jdbc.queryForList("SELECT state FROM " + this.table + " WHERE workflow_id = "
				+ idParam() + " AND workflow_role <> 'step'", String.class, workflow.id());
		boolean allEnded = states.stream().allMatch((state) -> JobState.fromValue(state).isTerminal());
		if (allEnded) {
			boolean callbackFailed = states.contains(JobState.DISCARDED.value());
			finish(workflow, (workflow.failed() == 0 && !callbackFailed) ? WorkflowState.COMPLETED
					: WorkflowState.FAILED, now, pending);
		}
	}

	/**
	 * Makes the pending jobs of these activations available; once committed, the workers of
	 * the queues of those not {@code claimedHere} are told, once per queue. Returns how many.
	 */
	private int activate(List<Activation> activations, Instant now, Supplier<Set<String>> claimedHere) {
		if (activations.isEmpty()) {
			return 0;
		}
		List<Activated> activated = this.writes.activate(activations, now);
		wake(activated, claimedHere);
		return activated.size();
	}

	/** Once committed, tells the workers of the queues of the jobs made available and not {@code claimedHere}, once per queue. */
	private void wake(List<Activated> activated, Supplier<Set<String>> claimedHere) {
		if (!activated.isEmpty()) {
			AfterCommit.run(() -> {
				Set<String> claimed = claimedHere.get();
				Set<String> claimable = new LinkedHashSet<>();
				activated.stream().filter((job) -> !claimed.contains(job.id())).forEach((job) -> claimable.add(job.queue()));
				if (!claimable.isEmpty()) {
					this.inserts.claimable(claimable);
				}
			});
		}
	}

	/** Cancels the workflow's jobs that have not started (only those in {@code state}, when given). */
	private void cancelNotStarted(String id, @Nullable String state, Instant now) {
		this.jdbc.update("UPDATE " + this.table + " SET state = 'cancelled', discarded_at = ?, locked_until = NULL"
				+ " WHERE workflow_id = " + idParam() + " AND state IN (" + ((state != null) ? "'" + state + "'" : NOT_STARTED)
				+ ")", (ps) -> {
					setInstant(ps, 1, now);
					ps.setString(2, id);
				});
	}

	/** Ends the workflow (as counted) in this state, written with {@code pending}, told after the commit. */
	private Workflow finish(Workflow workflow, WorkflowState state, Instant now, Pending pending) {
		Workflow ended = new Workflow(workflow.id(), workflow.type(), workflow.name(), state, workflow.total(),
				workflow.completed(), workflow.failed(), workflow.metadataJson(), workflow.createdAt(), now);
		pending.ended().add(ended);
		AfterCommit.tell(() -> this.listener.onEnded(ended));
		return ended;
	}

	/** These workflows' rows (ids in ascending order), locked in that order until the transaction ends. */
	private List<Workflow> lock(List<String> ids) {
		return read(ids, " ORDER BY id FOR UPDATE");
	}

	/**
	 * A running chain's counters, its steps that ended here among them: every step once its
	 * last succeeded (they run in order), otherwise counted from its steps.
	 */
	private Workflow chainCounted(Workflow workflow, List<Ended> ended) {
		if (workflow.type() != WorkflowType.CHAIN) {
			return workflow;
		}
		boolean lastSucceeded = ended.stream()
			.anyMatch((one) -> one.succeeded() && one.job().workflowPlace() != null
					&& one.job().workflowPlace().step() + 1 == workflow.total());
		return lastSucceeded ? withCounters(workflow, workflow.total(), 0) : countedChains(List.of(workflow)).get(0);
	}

	/** These workflows' rows, as stored: a running chain's counters are not its own ({@link #countedChains}). */
	private List<Workflow> read(List<String> ids, String then) {
		List<Workflow> read = new ArrayList<>(ids.size());
		for (List<String> chunk : chunks(ids, CHUNK)) {
			read.addAll(this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.workflows + " WHERE id IN ("
					+ idMarkers(chunk.size()) + ")" + then, (ps) -> bindValues(ps, 1, chunk), this::map));
		}
		return read;
	}

	/**
	 * These workflows, each running chain with its counters counted from its steps: a chain's
	 * row is written only when it ends ({@link #startNextSteps}), and a running chain has no
	 * failed step.
	 */
	private List<Workflow> countedChains(List<Workflow> workflows) {
		List<String> running = workflows.stream()
			.filter((workflow) -> workflow.type() == WorkflowType.CHAIN && !workflow.state().isTerminal())
			.map(Workflow::id)
			.toList();
		if (running.isEmpty()) {
			return workflows;
		}
		Map<String, Integer> completed = new HashMap<>();
		for (List<String> chunk : chunks(running, CHUNK)) {
			this.jdbc.query("SELECT workflow_id, count(*) FROM " + this.table + " WHERE workflow_id IN ("
					+ idMarkers(chunk.size()) + ") AND workflow_role = 'step' AND state = 'completed' GROUP BY workflow_id",
					(ps) -> bindValues(ps, 1, chunk), (rs, rowNum) -> completed.put(rs.getString(1).toLowerCase(Locale.ROOT),
							rs.getInt(2)));
		}
		return workflows.stream()
			.map((workflow) -> running.contains(workflow.id())
					? withCounters(workflow, completed.getOrDefault(workflow.id(), 0), 0) : workflow)
			.toList();
	}

	private Workflow map(ResultSet rs, int rowNum) throws SQLException {
		return new Workflow(rs.getString(1).toLowerCase(java.util.Locale.ROOT), WorkflowType.fromValue(rs.getString(2)),
				rs.getString(3), WorkflowState.fromValue(rs.getString(4)), rs.getInt(5), rs.getInt(6), rs.getInt(7),
				rs.getString(8), getInstant(rs, 9), getInstant(rs, 10));
	}

}
