package dev.ojs.bench.scenario;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.ojs.bench.LatencyRecorder;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

/**
 * Fills a queue before a measurement through {@link OjsTemplate#enqueueAll}, in batches of
 * 1,000 from two threads. Each job's argument is its enqueue time in microseconds.
 */
final class Preloader {

	private static final int BATCH = 1_000;

	private static final int THREADS = 2;

	private Preloader() {
	}

	/**
	 * Enqueues {@code count} jobs of a type.
	 * @return seconds it took
	 */
	static double enqueue(OjsTemplate template, String type, int count, JobOptions options, PrintStream out)
			throws Exception {
		long start = System.nanoTime();
		AtomicLong done = new AtomicLong();
		long reportEvery = Math.max(count / 10, 100_000);
		Batches.run(THREADS, count, BATCH, (from, size) -> {
			template.enqueueAll(type, argsBatch(size, LatencyRecorder.nowMicros()), options);
			long total = done.addAndGet(size);
			if (count >= 200_000 && total / reportEvery != (total - size) / reportEvery) {
				out.printf("  preloaded %,d of %,d jobs%n", total, count);
			}
		});
		return (System.nanoTime() - start) / 1e9;
	}

	/** {@code size} argument lists, each holding the enqueue time. */
	static List<List<?>> argsBatch(int size, long enqueuedAtMicros) {
		List<Long> args = List.of(enqueuedAtMicros);
		List<List<?>> batch = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			batch.add(args);
		}
		return batch;
	}

}
