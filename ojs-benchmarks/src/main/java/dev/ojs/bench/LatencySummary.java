package dev.ojs.bench;

import java.util.Arrays;

/**
 * Percentiles of a set of recorded latencies, in milliseconds. Percentiles use the
 * nearest-rank method: the p-th percentile of n sorted samples is the sample at rank
 * {@code ceil(p / 100 * n)}.
 *
 * @param count number of samples
 * @param p50 median
 * @param p95 95th percentile
 * @param p99 99th percentile
 * @param max largest sample
 * @param mean arithmetic mean
 */
public record LatencySummary(int count, double p50, double p95, double p99, double max, double mean) {

	/** No samples: every figure is {@link Double#NaN}. */
	public static final LatencySummary EMPTY = new LatencySummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
			Double.NaN);

	/**
	 * Summarises latencies given in microseconds.
	 * @param micros the samples (not modified)
	 * @return the summary in milliseconds
	 */
	public static LatencySummary ofMicros(long[] micros) {
		if (micros.length == 0) {
			return EMPTY;
		}
		long[] sorted = micros.clone();
		Arrays.sort(sorted);
		double sum = 0;
		for (long sample : sorted) {
			sum += sample;
		}
		return new LatencySummary(sorted.length, millis(nearestRank(sorted, 50)), millis(nearestRank(sorted, 95)),
				millis(nearestRank(sorted, 99)), millis(sorted[sorted.length - 1]), sum / sorted.length / 1000.0);
	}

	/**
	 * The nearest-rank percentile of sorted samples.
	 * @param sorted samples in ascending order, at least one
	 * @param percentile in (0, 100]
	 * @return the sample at rank {@code ceil(percentile / 100 * n)}
	 */
	static long nearestRank(long[] sorted, double percentile) {
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
		return sorted[Math.max(rank, 1) - 1];
	}

	private static double millis(long micros) {
		return micros / 1000.0;
	}

}
