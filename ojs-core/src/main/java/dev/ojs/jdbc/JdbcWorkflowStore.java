package dev.ojs.jdbc;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowListener;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowStore;
import dev.ojs.workflow.WorkflowType;

/**
 * The workflow store on {@code <prefix>workflows} beside the job table of a {@link JdbcJobStore}.
 * The advance of workflows is the job store's, in the transactions of the jobs' ends.
 */
public class JdbcWorkflowStore implements WorkflowStore {

	private final JdbcJobStore jobs;

	private final WorkflowSql workflows;

	/** Joins the caller's transaction, else runs in one of its own. */
	private final TransactionTemplate transaction;

	public JdbcWorkflowStore(JdbcJobStore jobs) {
		this.jobs = jobs;
		this.workflows = jobs.dialect().workflows();
		this.transaction = this.workflows.transaction(TransactionDefinition.PROPAGATION_REQUIRED,
				TransactionDefinition.ISOLATION_DEFAULT);
	}

	/** Tells {@code listener} of each transition of a workflow, after its commit. */
	public void setListener(WorkflowListener listener) {
		this.workflows.listener(java.util.Objects.requireNonNull(listener, "listener must not be null"));
	}

	@Override
	public void create(Workflow workflow, List<WorkflowJob> jobs) {
		this.transaction.executeWithoutResult((status) -> this.workflows.create(workflow));
	}

	@Override
	public Optional<Workflow> find(String id) {
		return SqlSupport.isUuid(id) ? this.workflows.find(id) : Optional.empty();
	}

	@Override
	public List<WorkflowJob> jobs(String id) {
		return SqlSupport.isUuid(id) ? this.workflows.jobs(id) : List.of();
	}

	@Override
	public boolean cancel(String id) {
		return SqlSupport.isUuid(id)
				&& Boolean.TRUE.equals(this.transaction.execute((status) -> this.workflows.cancel(id, this.jobs.now())));
	}

	@Override
	public List<Workflow> list(@Nullable WorkflowState state, @Nullable WorkflowType type, @Nullable String before,
			int limit) {
		if (before != null && !SqlSupport.isUuid(before)) {
			throw new IllegalArgumentException("Not a workflow id: " + before);
		}
		return this.workflows.list(state, type, before, limit);
	}

	@Override
	public long count(@Nullable WorkflowState state, @Nullable WorkflowType type) {
		return this.workflows.count(state, type);
	}

}
