package dev.ojs.job;

/**
 * Where a job of a workflow stands in it, as stored on the job's row: read with the job, so
 * neither the workflow's advance nor an observation of the job reads it again.
 *
 * @param type the workflow's type: {@code chain}, {@code group} or {@code batch}
 * @param role {@code step}, or the batch callback the job is: {@code on_success},
 * {@code on_failure} or {@code on_complete}
 * @param step the step's 0-based index in its workflow; {@code 0} for a callback
 */
public record WorkflowPlace(String type, String role, int step) {

	/** The role of a job that is a step, not a callback. */
	public static final String STEP = "step";

	/** Whether the job is one of a batch's callbacks rather than a step. */
	public boolean isCallback() {
		return !STEP.equals(this.role);
	}

}
