package dev.ojs.workflow;

import java.util.Locale;

/** What a job is in its workflow: a step, or one of a batch's callbacks (ojs-workflows.md §6). */
public enum WorkflowRole {

	STEP, ON_SUCCESS, ON_FAILURE, ON_COMPLETE;

	/** The lowercase name stored and shown, e.g. {@code "on_success"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static WorkflowRole fromValue(String value) {
		return valueOf(value.toUpperCase(Locale.ROOT));
	}

}
