package dev.ojs.workflow;

import java.util.Locale;

/** The three workflows declared over HTTP (spec README decision 34). */
public enum WorkflowType {

	/** Steps one after the other; the first that does not succeed fails the chain. */
	CHAIN,
	/** Jobs side by side, each on its own. */
	GROUP,
	/** A group with callbacks once every job ended. */
	BATCH;

	/** The lowercase name stored and shown, e.g. {@code "chain"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static WorkflowType fromValue(String value) {
		return valueOf(value.toUpperCase(Locale.ROOT));
	}

}
