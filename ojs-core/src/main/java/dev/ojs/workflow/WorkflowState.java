package dev.ojs.workflow;

import java.util.Locale;

/** A workflow's state (spec README decision 26): running, then exactly one of the others. */
public enum WorkflowState {

	RUNNING, COMPLETED, FAILED, CANCELLED;

	/** The lowercase name stored and shown, e.g. {@code "running"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static WorkflowState fromValue(String value) {
		return valueOf(value.toUpperCase(Locale.ROOT));
	}

	public boolean isTerminal() {
		return this != RUNNING;
	}

}
