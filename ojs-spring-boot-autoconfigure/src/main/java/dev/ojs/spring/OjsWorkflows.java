package dev.ojs.spring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionOperations;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowStore;
import dev.ojs.workflow.WorkflowType;

/**
 * The workflows service (ojs-workflows.md, spec README decisions 25–34): chains, groups and
 * batches of jobs enqueued through {@link OjsTemplate} in one transaction (joining the
 * caller's), with the same checks as any job. Steps not yet due wait as {@code pending} jobs;
 * the job store advances a workflow as its jobs end.
 */
public class OjsWorkflows {

	/**
	 * Most steps (or jobs) in one workflow created over HTTP, as in one batch enqueue
	 * (decision 18); the HTTP binding checks it.
	 */
	public static final int MAX_STEPS = 1000;

	/**
	 * Most steps (or jobs) in one workflow created through this service: one transaction
	 * inserts them all, so a batch of tens of thousands is created at once or not at all.
	 */
	public static final int MAX_JOBS = 100_000;

	private final OjsTemplate template;

	private final JobStore jobs;

	private final WorkflowStore store;

	private final TransactionOperations transactions;

	private final JsonMapper jsonMapper;

	/**
	 * @param transactions a transaction on the store's database, which joins the caller's
	 */
	public OjsWorkflows(OjsTemplate template, JobStore jobs, WorkflowStore store, TransactionOperations transactions,
			JsonMapper jsonMapper) {
		this.template = Objects.requireNonNull(template, "template must not be null");
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.transactions = Objects.requireNonNull(transactions, "transactions must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper must not be null");
	}

	/** A chain: each step runs once the one before it succeeded, with the results before it. */
	public String chain(@Nullable String name, List<OjsTemplate.Enqueue> steps) {
		return create(WorkflowType.CHAIN, name, steps, Map.of(), Map.of());
	}

	/** A group: the jobs run side by side. */
	public String group(@Nullable String name, List<OjsTemplate.Enqueue> jobs) {
		return create(WorkflowType.GROUP, name, jobs, Map.of(), Map.of());
	}

	/**
	 * A batch to declare its callbacks on, then {@link Batch#enqueue() enqueue}:
	 * {@code workflows.batch("import", jobs).onComplete(report).enqueue()}.
	 */
	public Batch batch(@Nullable String name, List<OjsTemplate.Enqueue> jobs) {
		return new Batch(name, jobs);
	}

	/** A batch: a group whose callbacks run once every job ended (decision 30). */
	public String batch(@Nullable String name, List<OjsTemplate.Enqueue> jobs,
			Map<WorkflowRole, OjsTemplate.Enqueue> callbacks) {
		return create(WorkflowType.BATCH, name, jobs, callbacks, Map.of());
	}

	/**
	 * Creates a workflow: its jobs and its row in one transaction. The first step of a chain,
	 * and every job of a group or batch, are enqueued at once; later steps and callbacks wait.
	 * @return the workflow's id, a bare UUIDv7 (decision 26)
	 * @throws OjsValidationException when there are no steps or too many, callbacks outside a
	 * batch, or a job is refused (naming it: {@code steps[i].queue}, {@code callbacks.on_success.type})
	 */
	public String create(WorkflowType type, @Nullable String name, List<OjsTemplate.Enqueue> steps,
			Map<WorkflowRole, OjsTemplate.Enqueue> callbacks, Map<String, Object> metadata) {
		String stepsField = (type == WorkflowType.CHAIN) ? "steps" : "jobs";
		checkSize(stepsField, steps.size(), MAX_JOBS);
		if (!callbacks.isEmpty() && type != WorkflowType.BATCH) {
			throw new OjsValidationException("callbacks", "Only a batch has '{field}'.");
		}
		if (callbacks.containsKey(WorkflowRole.STEP)) {
			throw new OjsValidationException("callbacks", "The '{field}' are on_success, on_failure and on_complete.");
		}
		Instant now = this.jobs.now();
		String id = JobIds.newId(now);
		List<OjsTemplate.Enqueue> stepJobs = new ArrayList<>(steps.size());
		List<WorkflowPlace> places = new ArrayList<>(steps.size());
		for (int i = 0; i < steps.size(); i++) {
			OjsTemplate.Enqueue step = steps.get(i);
			stepJobs.add(new OjsTemplate.Enqueue(step.type(), step.args(),
					step.options().forWorkflow(type == WorkflowType.CHAIN && i > 0)));
			places.add(new WorkflowPlace(type.value(), WorkflowRole.STEP.value(), i));
		}
		String metadataJson = this.jsonMapper.writeValueAsString(metadata);
		this.transactions.executeWithoutResult((status) -> {
			// each job is inserted with its workflow columns: the workflow's row is all there is to add
			List<String> ids = enqueue(stepJobs, id, places, stepsField);
			List<WorkflowJob> members = new ArrayList<>(ids.size() + callbacks.size());
			for (int i = 0; i < ids.size(); i++) {
				members.add(new WorkflowJob(ids.get(i), steps.get(i).type(), WorkflowRole.STEP, i, null));
			}
			callbacks.forEach((role, callback) -> {
				OjsTemplate.Enqueue held = new OjsTemplate.Enqueue(callback.type(), callback.args(),
						callback.options().forWorkflow(true));
				List<String> callbackId = enqueue(List.of(held), id,
						List.of(new WorkflowPlace(type.value(), role.value(), 0)), "callbacks." + role.value());
				members.add(new WorkflowJob(callbackId.get(0), callback.type(), role, 0, null));
			});
			this.store.create(new Workflow(id, type, name, WorkflowState.RUNNING, steps.size(), 0, 0, metadataJson, now,
					null), members);
		});
		return id;
	}

	/**
	 * Enqueues jobs of the workflow at their places; a refusal names the job as the workflow
	 * does ({@code steps[i].}, {@code callbacks.x.}).
	 */
	private List<String> enqueue(List<OjsTemplate.Enqueue> jobs, String workflowId, List<WorkflowPlace> places,
			String field) {
		try {
			return this.template.enqueueWorkflow(jobs, workflowId, places);
		}
		catch (OjsValidationException ex) {
			String refused = ex.getField();
			boolean indexed = refused.startsWith("jobs[");
			String index = indexed ? refused.substring(4, refused.indexOf(']') + 1) : "";
			String rest = indexed ? refused.substring(refused.indexOf(']') + 1) : "." + refused;
			throw ex.withField(field + (field.startsWith("callbacks") ? "" : index) + rest);
		}
	}

	/** The workflow with this id, its jobs and the failed ones, if it exists. */
	public Optional<WorkflowInfo> find(String id) {
		return this.store.find(id).map((workflow) -> {
			List<WorkflowJob> members = this.store.jobs(id);
			List<Job> failed = members.stream()
				.filter((member) -> member.state() == JobState.DISCARDED)
				.map((member) -> this.jobs.find(member.jobId()))
				.flatMap(Optional::stream)
				.toList();
			return new WorkflowInfo(workflow, members, failed);
		});
	}

	/**
	 * The stored jobs of a workflow by id, and their results (JSON) by job id, for a view of
	 * each step's timing, error and result: reads each job once.
	 */
	public StepJobs stepJobs(WorkflowInfo info) {
		Map<String, Job> found = new LinkedHashMap<>();
		Map<String, String> results = new LinkedHashMap<>();
		Instant now = this.jobs.now();
		for (WorkflowJob member : info.jobs()) {
			this.jobs.find(member.jobId()).ifPresent((job) -> found.put(job.id(), job.at(now)));
			if (member.state() == JobState.COMPLETED) {
				this.jobs.result(member.jobId()).ifPresent((result) -> results.put(member.jobId(), result));
			}
		}
		return new StepJobs(found, results);
	}

	/**
	 * The jobs of a workflow and their results.
	 * @param jobs stored jobs by id
	 * @param results results (JSON) by job id, of the completed jobs that returned one
	 */
	public record StepJobs(Map<String, Job> jobs, Map<String, String> results) {

	}

	/**
	 * Cancels a running workflow (decision 32): its jobs not started are cancelled, active
	 * ones finish but never advance it.
	 * @return whether it did; {@code false} when there is no such workflow or it has ended
	 */
	public boolean cancel(String id) {
		return this.store.cancel(id);
	}

	/**
	 * A page of workflows, newest first (spec README decision 13: keyset paged, the cursor is
	 * the id of the last workflow shown).
	 * @param state running, completed, failed or cancelled; {@code null} or blank for all
	 * @param type chain, group or batch; {@code null} or blank for all
	 * @param cursor the {@code next_cursor} of the page before, or {@code null}
	 * @param perPage 1 to {@value OjsJobs#MAX_PAGE}; {@code null} for {@value OjsJobs#DEFAULT_PAGE}
	 * @throws OjsValidationException naming {@code state}, {@code type}, {@code cursor} or {@code per_page}
	 */
	public Page list(@Nullable String state, @Nullable String type, @Nullable String cursor,
			@Nullable Integer perPage) {
		WorkflowState wanted = isBlank(state) ? null : value("state", state, WorkflowState.values());
		WorkflowType kind = isBlank(type) ? null : value("type", type, WorkflowType.values());
		int size = (perPage != null) ? perPage : OjsJobs.DEFAULT_PAGE;
		if (size < 1 || size > OjsJobs.MAX_PAGE) {
			throw new OjsValidationException("per_page", "per_page must be between 1 and " + OjsJobs.MAX_PAGE);
		}
		String after = isBlank(cursor) ? null : cursor.toLowerCase(java.util.Locale.ROOT);
		if (after != null && !after.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) {
			throw new OjsValidationException("cursor", "cursor is not a cursor of this list");
		}
		List<Workflow> rows = this.store.list(wanted, kind, after, size + 1);
		List<Workflow> items = (rows.size() > size) ? rows.subList(0, size) : rows;
		String next = (rows.size() > size) ? items.get(size - 1).id() : null;
		return new Page(List.copyOf(items), this.store.count(wanted, kind), next);
	}

	private static boolean isBlank(@Nullable String value) {
		return value == null || value.isBlank();
	}

	/** The constant whose value this is, else a refusal naming the parameter. */
	private static <E extends Enum<E>> E value(String name, String given, E[] constants) {
		List<String> values = new ArrayList<>();
		for (E constant : constants) {
			String value = constant.name().toLowerCase(java.util.Locale.ROOT);
			if (value.equals(given.strip().toLowerCase(java.util.Locale.ROOT))) {
				return constant;
			}
			values.add(value);
		}
		throw new OjsValidationException(name, name + " must be one of " + String.join(", ", values),
				Map.of("expected", String.join("|", values)));
	}

	/**
	 * A page of {@link #list workflows}.
	 * @param items the workflows, newest first
	 * @param total how many match the filter
	 * @param nextCursor the cursor of the next page, or {@code null} on the last
	 */
	public record Page(List<Workflow> items, long total, @Nullable String nextCursor) {

	}

	/** The clock of the store, at which jobs are read. */
	public Instant now() {
		return this.jobs.now();
	}

	/** A batch being declared: its callbacks, each at most once, then its enqueue. */
	public final class Batch {

		private final @Nullable String name;

		private final List<OjsTemplate.Enqueue> jobs;

		private final Map<WorkflowRole, OjsTemplate.Enqueue> callbacks = new LinkedHashMap<>();

		private Batch(@Nullable String name, List<OjsTemplate.Enqueue> jobs) {
			this.name = name;
			this.jobs = List.copyOf(jobs);
		}

		/** Runs once every job ended, if every one succeeded. */
		public Batch onSuccess(OjsTemplate.Enqueue callback) {
			return callback(WorkflowRole.ON_SUCCESS, callback);
		}

		/** Runs once every job ended, if one did not succeed. */
		public Batch onFailure(OjsTemplate.Enqueue callback) {
			return callback(WorkflowRole.ON_FAILURE, callback);
		}

		/** Runs once every job ended, whatever their outcomes. */
		public Batch onComplete(OjsTemplate.Enqueue callback) {
			return callback(WorkflowRole.ON_COMPLETE, callback);
		}

		private Batch callback(WorkflowRole role, OjsTemplate.Enqueue callback) {
			this.callbacks.put(role, Objects.requireNonNull(callback, "callback must not be null"));
			return this;
		}

		/** Enqueues the batch and its callbacks, as {@link OjsWorkflows#create} does; returns its id. */
		public String enqueue() {
			return create(WorkflowType.BATCH, this.name, this.jobs, this.callbacks, Map.of());
		}

	}

	/**
	 * A workflow as read.
	 * @param workflow the workflow
	 * @param jobs its steps in order, then its callbacks, with their states
	 * @param failedJobs those of its jobs that ended without success, for their errors
	 */
	public record WorkflowInfo(Workflow workflow, List<WorkflowJob> jobs, List<Job> failedJobs) {

	}

	/** Refuses a workflow without steps or with more than {@code max}, naming the field. */
	public static void checkSize(String field, int size, int max) {
		if (size < 1 || size > max) {
			throw new OjsValidationException(field,
					"The '{field}' field must hold 1 to " + max + " jobs, got " + size + ".");
		}
	}

}
