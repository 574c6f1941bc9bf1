package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.FailingType;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;

/**
 * Statistics over every queue (ojs-admin-api.md §10): the jobs in each state, outcome
 * counters per period, and the job types failing most.
 */
public class OjsStatistics {

	/** The states {@link #totals()} counts, in lifecycle order, dead letters apart. */
	public static final List<String> COUNTED_STATES = List.of("pending", "available", "active", "scheduled",
			"retryable", "completed", "discarded", "cancelled", OjsDeadLetters.STATE);

	/** How many job types {@link #topFailing} names. */
	public static final int TOP_FAILING = 10;

	private final AdminStore admin;

	/**
	 * @param admin the queries over jobs and their outcome counters
	 */
	public OjsStatistics(AdminStore admin) {
		this.admin = Objects.requireNonNull(admin, "admin must not be null");
	}

	/** The store's clock, which the counters' periods follow. */
	public Instant now() {
		return this.admin.now();
	}

	/**
	 * How many queues there are, and the jobs in each of the {@link #COUNTED_STATES} over
	 * every queue: {@code discarded} without the dead letters, which
	 * {@value OjsDeadLetters#STATE} counts.
	 */
	public Totals totals() {
		List<QueueSummary> queues = this.admin.queues();
		Map<String, Long> counts = new LinkedHashMap<>();
		COUNTED_STATES.forEach((state) -> counts.put(state, 0L));
		for (QueueSummary queue : queues) {
			queue.counts().forEach((state, n) -> counts.merge(state.value(), n, Long::sum));
			counts.merge("discarded", -queue.deadLetters(), Long::sum);
			counts.merge(OjsDeadLetters.STATE, queue.deadLetters(), Long::sum);
		}
		return new Totals(queues.size(), counts);
	}

	/** The outcome counters of every queue summed over the last {@code window}, or {@code null} without outcomes. */
	public @Nullable StatsBucket recent(Duration window) {
		Instant now = now();
		List<StatsBucket> buckets = this.admin.stats(now.minus(window), now.plusSeconds(1), 24 * 60, null);
		if (buckets.isEmpty()) {
			return null;
		}
		long[] sum = new long[5];
		for (StatsBucket bucket : buckets) {
			sum[0] += bucket.completed();
			sum[1] += bucket.failed();
			sum[2] += bucket.retried();
			sum[3] += bucket.deadLettered();
			sum[4] += bucket.discarded();
		}
		return new StatsBucket(now, "*", sum[0], sum[1], sum[2], sum[3], sum[4]);
	}

	/**
	 * Outcome counters per period of {@code periodMinutes} between {@code since} (inclusive)
	 * and {@code until} (exclusive), oldest first, of one queue or of all; periods without
	 * outcomes are left out.
	 */
	public List<StatsBucket> history(Instant since, Instant until, int periodMinutes, @Nullable String queue) {
		return this.admin.stats(since, until, periodMinutes, queue);
	}

	/** The {@value #TOP_FAILING} job types with the most failed jobs since {@code since}, most first. */
	public List<FailingType> topFailing(Instant since) {
		return this.admin.topFailing(since, TOP_FAILING);
	}

	/**
	 * Totals over every queue.
	 *
	 * @param queues how many queues hold a job or have a stored state
	 * @param jobs jobs per state, in the order of {@link OjsStatistics#COUNTED_STATES}
	 */
	public record Totals(int queues, Map<String, Long> jobs) {

	}

}
