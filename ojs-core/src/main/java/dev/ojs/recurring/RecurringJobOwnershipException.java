package dev.ojs.recurring;

import org.jspecify.annotations.Nullable;

/**
 * A change to a recurring job that another application owns: applications sharing a database
 * never change each other's recurring jobs.
 */
public class RecurringJobOwnershipException extends IllegalStateException {

	public RecurringJobOwnershipException(String name, @Nullable String owner, @Nullable String application) {
		super("Recurring job '" + name + "' belongs to application " + describe(owner) + ", not to "
				+ describe(application));
	}

	private static String describe(@Nullable String application) {
		return (application != null) ? "'" + application + "'" : "<unnamed> (no spring.application.name)";
	}

}
