package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

	/** How many periods {@link #history(Period, Instant, Instant, String)} spans at most. */
	public static final int MAX_BUCKETS = 10_000;

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
	 * Outcome counters per period between {@code since} and {@code until}, oldest first, of one
	 * queue or of all; periods without outcomes are zeros. The first period is the one holding
	 * {@code since}.
	 * @param since from; {@code null} for an hour before {@code until} with one-minute periods,
	 * a day before otherwise
	 * @param until to (exclusive); {@code null} for now
	 * @param queue one queue, or {@code null} for all
	 * @throws OjsValidationException naming {@code since} when the periods are not at least one
	 * and at most {@value #MAX_BUCKETS}, {@code queue} when the name breaks {@link OjsNames}
	 */
	public List<StatsBucket> history(Period period, @Nullable Instant since, @Nullable Instant until,
			@Nullable String queue) {
		if (queue != null) {
			OjsNames.checkQueue(queue, "queue");
		}
		Instant to = (until != null) ? until : now();
		Instant from = (since != null) ? since
				: to.minus(Duration.ofMinutes((period == Period.ONE_MINUTE) ? 60 : 24 * 60));
		long seconds = period.minutes() * 60L;
		Instant first = Instant.ofEpochSecond(from.getEpochSecond() - Math.floorMod(from.getEpochSecond(), seconds));
		if (!first.isBefore(to) || Duration.between(first, to).getSeconds() / seconds > MAX_BUCKETS) {
			throw new OjsValidationException("since",
					"since must be before until, at most " + MAX_BUCKETS + " periods apart");
		}
		Map<Instant, StatsBucket> found = new LinkedHashMap<>();
		this.admin.stats(first, to, period.minutes(), queue).forEach((bucket) -> found.put(bucket.start(), bucket));
		List<StatsBucket> buckets = new ArrayList<>();
		for (Instant start = first; start.isBefore(to); start = start.plusSeconds(seconds)) {
			StatsBucket bucket = found.get(start);
			buckets.add((bucket != null) ? bucket : new StatsBucket(start, (queue != null) ? queue : "*", 0, 0, 0, 0, 0));
		}
		return buckets;
	}

	/** The {@value #TOP_FAILING} job types with the most failed jobs since {@code since}, most first. */
	public List<FailingType> topFailing(Instant since) {
		return this.admin.topFailing(since, TOP_FAILING);
	}

	/** The length of a {@link #history} period (ojs-admin-api.md §10.2). */
	public enum Period {

		/** One minute. */
		ONE_MINUTE("1m", 1),

		/** Five minutes. */
		FIVE_MINUTES("5m", 5),

		/** One hour. */
		ONE_HOUR("1h", 60);

		private final String value;

		private final int minutes;

		Period(String value, int minutes) {
			this.value = value;
			this.minutes = minutes;
		}

		/** The period's name in requests: {@code 1m}, {@code 5m} or {@code 1h}. */
		public String value() {
			return this.value;
		}

		/** Its length in minutes. */
		public int minutes() {
			return this.minutes;
		}

		/**
		 * The period of this name.
		 * @throws OjsValidationException naming {@code period} for any other name
		 */
		public static Period of(String value) {
			for (Period period : values()) {
				if (period.value.equals(value)) {
					return period;
				}
			}
			throw new OjsValidationException("period", "period must be 1m, 5m or 1h");
		}

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
