package dev.ojs.workflow;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Where workflows are stored. Their jobs are stored jobs; every end of one (completed,
 * discarded, dead-lettered, expired) advances its workflow in the same transaction (spec
 * README decision 31), which the job store does.
 */
public interface WorkflowStore {

	/**
	 * Stores a workflow whose jobs were just inserted as its jobs (steps not yet due as
	 * {@code pending}), each with the workflow's id and its place
	 * ({@link dev.ojs.job.NewJob#inWorkflow}): the store writes their rows no more. Joins the
	 * caller's transaction, which should also have inserted the jobs.
	 * @param jobs the jobs as inserted
	 */
	void create(Workflow workflow, List<WorkflowJob> jobs);

	/** The workflow with this id, if it exists. */
	Optional<Workflow> find(String id);

	/** The jobs of a workflow with their current states: steps in order, then callbacks. */
	List<WorkflowJob> jobs(String id);

	/**
	 * Cancels a running workflow (spec README decision 32): its pending, scheduled, available
	 * and retryable jobs become {@code cancelled}; active ones finish but never advance it.
	 * @return whether it did; {@code false} when there is no such workflow or it has ended
	 */
	boolean cancel(String id);

	/**
	 * Up to {@code limit} workflows, newest first, after the one with id {@code before} (a
	 * keyset cursor) when given; a {@code null} state or type matches all.
	 */
	List<Workflow> list(@Nullable WorkflowState state, @Nullable WorkflowType type, @Nullable String before, int limit);

	/** How many workflows have this state and type; {@code null} matches all. */
	long count(@Nullable WorkflowState state, @Nullable WorkflowType type);

}
