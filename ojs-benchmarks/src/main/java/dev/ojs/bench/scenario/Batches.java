package dev.ojs.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Splits {@code total} items into batches that several threads take in turn until none
 * are left.
 */
final class Batches {

	/** Handles the batch of {@code size} items starting at item {@code from}. */
	@FunctionalInterface
	interface Action {

		void run(long from, int size) throws Exception;

	}

	private Batches() {
	}

	/** Runs the batches on {@code threads} threads and waits for all of them; rethrows the first failure. */
	static void run(int threads, long total, int batchSize, Action action) throws Exception {
		AtomicLong next = new AtomicLong();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					long from;
					while ((from = next.getAndAdd(batchSize)) < total) {
						action.run(from, (int) Math.min(batchSize, total - from));
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

}
