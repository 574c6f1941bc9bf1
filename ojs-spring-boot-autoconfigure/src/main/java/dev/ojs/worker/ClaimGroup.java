package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Job types a poller claims in one statement: either one type with its own concurrency
 * limit, or every type without one. A group is shared by the pollers of all queues, so a
 * type's limit holds per node across every queue it is claimed from: a poller reserves
 * slots before it claims and returns those it did not fill.
 */
final class ClaimGroup {

	/** The types of the group, each with its visibility timeout, in registration order. */
	final Map<String, Duration> visibilityByType = new LinkedHashMap<>();

	/** The type's own concurrency on this node; 0 = only the queues' limits apply. */
	final int limit;

	private final AtomicInteger running = new AtomicInteger();

	private final List<QueuePoller> pollers = new CopyOnWriteArrayList<>();

	/** A poller found no free slot since slots were last freed: wake the pollers on release. */
	private volatile boolean refused;

	private ClaimGroup(int limit) {
		this.limit = limit;
	}

	/** The groups of these registrations: one per type with its own limit, then the rest. */
	static List<ClaimGroup> of(Collection<HandlerRegistration> registrations, Duration defaultVisibility) {
		List<ClaimGroup> groups = new ArrayList<>();
		ClaimGroup unlimited = new ClaimGroup(0);
		for (HandlerRegistration registration : registrations) {
			ClaimGroup group = (registration.concurrency() > 0) ? new ClaimGroup(registration.concurrency()) : unlimited;
			group.visibilityByType.put(registration.type(), Worker.visibilityTimeout(registration, defaultVisibility));
			if (group != unlimited) {
				groups.add(group);
			}
		}
		if (!unlimited.visibilityByType.isEmpty()) {
			groups.add(unlimited);
		}
		return groups;
	}

	/** Registers a poller to wake when slots this group refused become free. */
	void servedBy(QueuePoller poller) {
		this.pollers.add(poller);
	}

	/** Reserves up to {@code wanted} slots: all without a limit, else what the limit leaves. */
	int reserve(int wanted) {
		if (this.limit == 0 || wanted <= 0) {
			return Math.max(0, wanted);
		}
		int before = this.running.getAndUpdate((running) -> running + Math.max(0, Math.min(wanted, this.limit - running)));
		int granted = Math.max(0, Math.min(wanted, this.limit - before));
		if (granted == 0) {
			this.refused = true;
		}
		return granted;
	}

	/** Frees reserved slots (unfilled, or whose handler returned); wakes the pollers that were refused. */
	void release(int slots) {
		if (this.limit == 0 || slots <= 0) {
			return;
		}
		this.running.addAndGet(-slots);
		if (this.refused) {
			this.refused = false;
			this.pollers.forEach(QueuePoller::wake);
		}
	}

}
