package dev.ojs.web.http;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The last events of this node, for {@code GET /ojs/v1/events} asked for JSON
 * (ojs-events.md §6.4, L0-EVT-001, L0-EVT-002): a bounded ring in memory, the oldest event
 * dropped when a new one does not fit. Each node keeps its own, as each node streams its
 * own events: a client polling one node sees the events of the jobs that node enqueued and
 * its workers ran.
 */
final class RecentEvents {

	/** One event: its id, what the filters read, and its §2.1 envelope. */
	record Event(String id, String type, @Nullable String queue, @Nullable String jobType,
			Map<String, Object> envelope) {

		boolean matches(Set<String> types, Set<String> queues, Set<String> jobTypes) {
			return (types.isEmpty() || types.contains(this.type))
					&& (queues.isEmpty() || queues.contains(this.queue))
					&& (jobTypes.isEmpty() || jobTypes.contains(this.jobType));
		}

	}

	/** A page of events, oldest first, and whether more matching events follow it. */
	record Page(List<Map<String, Object>> events, @Nullable String cursor, boolean hasMore) {
	}

	private final int capacity;

	private final ArrayDeque<Event> events;

	/** @param capacity how many events are kept; 0 keeps none */
	RecentEvents(int capacity) {
		Assert.isTrue(capacity >= 0, "capacity must not be negative");
		this.capacity = capacity;
		this.events = new ArrayDeque<>(Math.min(capacity, 1024));
	}

	boolean isEnabled() {
		return this.capacity > 0;
	}

	synchronized void add(Event event) {
		if (this.capacity == 0) {
			return;
		}
		if (this.events.size() == this.capacity) {
			this.events.removeFirst();
		}
		this.events.addLast(event);
	}

	/**
	 * The matching events, oldest first: those after the event {@code after} (when it is
	 * still kept; else from the oldest kept), or else the last {@code limit}.
	 */
	synchronized Page page(@Nullable String after, Set<String> types, Set<String> queues, Set<String> jobTypes,
			int limit) {
		List<Event> matching = new ArrayList<>();
		boolean afterSeen = (after == null) || this.events.stream().noneMatch((event) -> event.id().equals(after));
		for (Iterator<Event> iterator = this.events.iterator(); iterator.hasNext();) {
			Event event = iterator.next();
			if (!afterSeen) {
				afterSeen = event.id().equals(after);
				continue;
			}
			if (event.matches(types, queues, jobTypes)) {
				matching.add(event);
			}
		}
		List<Event> page;
		boolean hasMore;
		if (after != null) {
			page = matching.subList(0, Math.min(limit, matching.size()));
			hasMore = matching.size() > limit;
		}
		else {
			page = matching.subList(Math.max(0, matching.size() - limit), matching.size());
			hasMore = false;
		}
		String cursor = page.isEmpty() ? after : page.get(page.size() - 1).id();
		return new Page(page.stream().map(Event::envelope).toList(), cursor, hasMore);
	}

}
