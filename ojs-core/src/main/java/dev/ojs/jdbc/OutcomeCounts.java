package dev.ojs.jdbc;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ojs.admin.StatsBucket;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

/**
 * Counts a batch of written outcomes per queue and minute, as the rows added to the
 * {@code <prefix>stats} table (ojs-admin-api.md §10).
 */
final class OutcomeCounts {

	private OutcomeCounts() {
	}

	/** Completions of the written jobs, in the minute of {@code now}. */
	static List<StatsBucket> completed(List<Job> jobs, Set<String> written, Instant now) {
		Instant minute = now.truncatedTo(ChronoUnit.MINUTES);
		Map<String, long[]> byQueue = new TreeMap<>();
		for (Job job : jobs) {
			if (written.contains(job.id())) {
				byQueue.computeIfAbsent(job.queue(), (queue) -> new long[1])[0]++;
			}
		}
		List<StatsBucket> buckets = new ArrayList<>(byQueue.size());
		byQueue.forEach((queue, n) -> buckets.add(new StatsBucket(minute, queue, n[0], 0, 0, 0, 0)));
		return buckets;
	}

	/** Jobs discarded by expiry, per queue, in the minute of {@code now}: counted as discarded. */
	static List<StatsBucket> expired(List<Job> jobs, Instant now) {
		Instant minute = now.truncatedTo(ChronoUnit.MINUTES);
		Map<String, long[]> byQueue = new TreeMap<>();
		for (Job job : jobs) {
			byQueue.computeIfAbsent(job.queue(), (queue) -> new long[1])[0]++;
		}
		List<StatsBucket> buckets = new ArrayList<>(byQueue.size());
		byQueue.forEach((queue, n) -> buckets.add(new StatsBucket(minute, queue, 0, 0, 0, 0, n[0])));
		return buckets;
	}

	/** Written failures per queue and minute of failure: failed, and retried, dead-lettered or discarded. */
	static List<StatsBucket> failed(List<AttemptFailure> failures, Set<String> written) {
		Map<List<Object>, long[]> counts = new TreeMap<>((a, b) -> {
			int byMinute = ((Instant) a.get(0)).compareTo((Instant) b.get(0));
			return (byMinute != 0) ? byMinute : ((String) a.get(1)).compareTo((String) b.get(1));
		});
		for (AttemptFailure failure : failures) {
			if (!written.contains(failure.job().id())) {
				continue;
			}
			long[] n = counts.computeIfAbsent(
					List.of(failure.failedAt().truncatedTo(ChronoUnit.MINUTES), failure.job().queue()),
					(key) -> new long[4]);
			n[0]++;
			if (failure.state() == JobState.RETRYABLE) {
				n[1]++;
			}
			else if (failure.deadLetter()) {
				n[2]++;
			}
			else {
				n[3]++;
			}
		}
		List<StatsBucket> buckets = new ArrayList<>(counts.size());
		counts.forEach((key, n) -> buckets
			.add(new StatsBucket((Instant) key.get(0), (String) key.get(1), 0, n[0], n[1], n[2], n[3])));
		return buckets;
	}

}
