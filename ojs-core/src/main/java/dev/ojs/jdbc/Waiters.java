package dev.ojs.jdbc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.ojs.worker.RemoteAttempts;

/**
 * The kinds of worker claiming through this node that found a queue's concurrency limit full,
 * by queue: this node's in-process worker (its pollers and refills) and the HTTP workers that
 * fetch through it, taken together (each fetch may name another worker). While one kind waits,
 * the other, having waited less or not at all, leaves it a slot, so the kind waiting longest
 * takes the next free one and the two take turns on a full queue. A kind that stops asking for
 * {@value #FORGET_MILLIS} ms is forgotten, and with it the slot left for it.
 */
final class Waiters {

	/** How long a claimer that stopped asking is still waited for. */
	static final long FORGET_MILLIS = 5000;

	/** Since when (epoch ms) a claimer waits, and when it last asked. */
	private record Waiting(long since, long asked) {
	}

	private final Map<String, Map<String, Waiting>> byQueue = new ConcurrentHashMap<>();

	/** The kind of worker a claimer is: HTTP workers are one. */
	static String kind(String claimer) {
		return claimer.startsWith(RemoteAttempts.OWNER_PREFIX) ? RemoteAttempts.OWNER_PREFIX : claimer;
	}

	/** Whether {@code claimer}'s kind leaves a free slot of {@code queue} to another that waited longer. */
	boolean yields(String queue, String claimer, long nowMillis) {
		Map<String, Waiting> waiting = this.byQueue.get(queue);
		if (waiting == null) {
			return false;
		}
		waiting.values().removeIf((other) -> nowMillis - other.asked() > FORGET_MILLIS);
		String kind = kind(claimer);
		Waiting mine = waiting.get(kind);
		long since = (mine != null) ? mine.since() : Long.MAX_VALUE;
		return waiting.entrySet()
			.stream()
			.anyMatch((other) -> !other.getKey().equals(kind) && other.getValue().since() < since);
	}

	/** {@code claimer} asked for jobs of {@code queue} and got none for want of a free slot. */
	void waited(String queue, String claimer, long nowMillis) {
		this.byQueue.computeIfAbsent(queue, (key) -> new ConcurrentHashMap<>())
			.merge(kind(claimer), new Waiting(nowMillis, nowMillis), (was, now) -> new Waiting(was.since(), now.asked()));
	}

	/** {@code claimer} was offered free slots of {@code queue}: it waits no more. */
	void served(String queue, String claimer) {
		Map<String, Waiting> waiting = this.byQueue.get(queue);
		if (waiting != null) {
			waiting.remove(kind(claimer));
		}
	}

}
