package dev.ojs.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowType;

/**
 * The JSON view of a workflow (spec README decision 27): the flat counters of the test
 * cases, the metadata of ojs-workflows.md §3.3, its steps (or jobs) with their states, its
 * error (§9.6) and its callbacks.
 */
public final class WorkflowJson {

	private final JsonMapper jsonMapper;

	public WorkflowJson(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/** The workflow as its resource shows it. */
	public Map<String, Object> workflow(OjsWorkflows.WorkflowInfo info) {
		Workflow workflow = info.workflow();
		boolean chain = workflow.type() == WorkflowType.CHAIN;
		Map<String, Object> json = counters(workflow);
		List<Map<String, Object>> steps = new ArrayList<>();
		Map<String, Object> callbacks = new LinkedHashMap<>();
		for (WorkflowJob member : info.jobs()) {
			Map<String, Object> step = new LinkedHashMap<>();
			if (member.role() == WorkflowRole.STEP) {
				step.put("index", member.step());
			}
			step.put("type", member.type());
			step.put("state", stepState(member.state()));
			step.put("job_state", (member.state() != null) ? member.state().value() : null);
			step.put("job_id", member.jobId());
			if (member.role() == WorkflowRole.STEP) {
				steps.add(step);
			}
			else {
				callbacks.put(member.role().value(), step);
			}
		}
		json.put(chain ? "steps" : "jobs", steps);
		if (!callbacks.isEmpty()) {
			json.put("callbacks", callbacks);
		}
		if (!info.failedJobs().isEmpty()) {
			json.put("error", error(info));
		}
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("created_at", JobJson.timestamp(workflow.createdAt()));
		if (workflow.finishedAt() != null) {
			metadata.put("completed_at", JobJson.timestamp(workflow.finishedAt()));
		}
		metadata.put("job_count", workflow.total());
		metadata.put("completed_count", workflow.completed());
		metadata.put("failed_count", workflow.failed());
		Object given = this.jsonMapper.readTree(workflow.metadataJson());
		json.put("metadata", metadata);
		if (given instanceof tools.jackson.databind.JsonNode node && !node.isEmpty()) {
			json.put("user_metadata", node);
		}
		json.put("created_at", JobJson.timestamp(workflow.createdAt()));
		if (workflow.finishedAt() != null) {
			json.put("finished_at", JobJson.timestamp(workflow.finishedAt()));
		}
		return json;
	}

	/**
	 * The workflow as the Admin API shows it: its resource, each step and callback with its
	 * job's queue, attempts, times, last error and result.
	 */
	public Map<String, Object> admin(OjsWorkflows.WorkflowInfo info, OjsWorkflows.StepJobs stepJobs) {
		Map<String, Object> json = workflow(info);
		List<Map<String, Object>> members = new ArrayList<>();
		for (String key : List.of("steps", "jobs")) {
			if (json.get(key) instanceof List<?> list) {
				list.forEach((step) -> members.add(cast(step)));
			}
		}
		if (json.get("callbacks") instanceof Map<?, ?> callbacks) {
			callbacks.values().forEach((step) -> members.add(cast(step)));
		}
		for (Map<String, Object> step : members) {
			Job job = stepJobs.jobs().get(step.get("job_id"));
			if (job == null) {
				continue;
			}
			step.put("queue", job.queue());
			step.put("attempt", job.attempt());
			step.put("max_attempts", job.maxAttempts());
			step.put("created_at", JobJson.timestamp(job.createdAt()));
			step.put("started_at", JobJson.timestamp(job.startedAt()));
			step.put("ended_at", JobJson.timestamp((job.completedAt() != null) ? job.completedAt() : job.discardedAt()));
			step.put("last_error", (job.lastError() != null) ? JobJson.error(job.lastError(), JobJson.Surface.ADMIN) : null);
			String result = stepJobs.results().get(job.id());
			step.put("result", (result != null) ? this.jsonMapper.readTree(result) : null);
		}
		return json;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> cast(Object step) {
		return (Map<String, Object>) step;
	}

	/**
	 * A workflow in lists (the Admin API's): its id, type, name, state, counters and times,
	 * without its jobs.
	 */
	public static Map<String, Object> summary(Workflow workflow) {
		Map<String, Object> json = counters(workflow);
		json.put("created_at", JobJson.timestamp(workflow.createdAt()));
		json.put("finished_at", (workflow.finishedAt() != null) ? JobJson.timestamp(workflow.finishedAt()) : null);
		return json;
	}

	/** Id, type, name, state and the counters, named for steps (a chain) or jobs. */
	private static Map<String, Object> counters(Workflow workflow) {
		boolean chain = workflow.type() == WorkflowType.CHAIN;
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("id", workflow.id());
		json.put("type", workflow.type().value());
		json.put("name", workflow.name());
		json.put("state", workflow.state().value());
		json.put(chain ? "steps_total" : "jobs_total", workflow.total());
		json.put(chain ? "steps_completed" : "jobs_completed", workflow.completed());
		json.put(chain ? "steps_failed" : "jobs_failed", workflow.failed());
		return json;
	}

	/** ojs-workflows.md §9.6: the first failed step, the failed jobs and their errors. */
	private static Map<String, Object> error(OjsWorkflows.WorkflowInfo info) {
		Map<String, Object> error = new LinkedHashMap<>();
		List<String> ids = info.failedJobs().stream().map(Job::id).toList();
		info.jobs()
			.stream()
			.filter((member) -> member.role() == WorkflowRole.STEP && ids.contains(member.jobId()))
			.findFirst()
			.ifPresent((member) -> error.put("failed_step_index", member.step()));
		error.put("failed_job_ids", ids);
		List<Map<String, Object>> errors = new ArrayList<>();
		for (Job job : info.failedJobs()) {
			if (job.lastError() != null) {
				Map<String, Object> entry = new LinkedHashMap<>(JobJson.error(job.lastError(), JobJson.Surface.BINDING));
				entry.put("job_id", job.id());
				errors.add(entry);
			}
		}
		error.put("errors", errors);
		return error;
	}

	/** A step's state in the vocabulary of ojs-workflows.md §4.4. */
	static String stepState(@Nullable JobState state) {
		if (state == null) {
			return "waiting";
		}
		return switch (state) {
			case PENDING -> "waiting";
			case SCHEDULED, AVAILABLE, RETRYABLE -> "pending";
			case ACTIVE -> "active";
			case COMPLETED -> "completed";
			case DISCARDED -> "failed";
			case CANCELLED -> "cancelled";
		};
	}

}
