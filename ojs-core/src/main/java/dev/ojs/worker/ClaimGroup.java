package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Job types a poller claims in one statement: one type with its own concurrency limit per
 * node, or every type without one. {@link Slots} counts what each limited group holds.
 */
final class ClaimGroup {

	/** The group's types, each with its reservation length (spec §9), in registration order. */
	final Map<String, Duration> visibilityByType = new LinkedHashMap<>();

	/** The type's own concurrency on this node; 0 = only the queues' limits apply. */
	final int limit;

	private ClaimGroup(int limit) {
		this.limit = limit;
	}

	/** One group per type with its own limit, then one for the rest. */
	static List<ClaimGroup> of(Collection<HandlerRegistration> registrations, Duration defaultVisibility) {
		List<ClaimGroup> groups = new ArrayList<>();
		ClaimGroup unlimited = new ClaimGroup(0);
		for (HandlerRegistration registration : registrations) {
			ClaimGroup group = (registration.concurrency() > 0) ? new ClaimGroup(registration.concurrency()) : unlimited;
			Duration visibility = (registration.visibilityTimeout() != null) ? registration.visibilityTimeout()
					: defaultVisibility;
			group.visibilityByType.put(registration.type(), visibility);
			if (group != unlimited) {
				groups.add(group);
			}
		}
		if (!unlimited.visibilityByType.isEmpty()) {
			groups.add(unlimited);
		}
		return groups;
	}

}
