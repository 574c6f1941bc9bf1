package dev.ojs.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;

/**
 * Threads on several nodes (stores) that claim, run (3 ms) and complete jobs until a number of
 * them completed, all starting at once, while one more thread samples the database: what the
 * exactness tests of limits share.
 */
final class ClaimRace {

	private ClaimRace() {
	}

	/** One thread's claim: of thread {@code thread} on node {@code node}. */
	interface Claimer {

		List<Job> claim(JdbcJobStore store, int node, int thread) throws Exception;

	}

	/**
	 * What a race saw: the most limited jobs running at once as the threads counted them, the
	 * database's samples, the jobs completed.
	 */
	record Result(int maxRunning, List<Long> samples, int completed) {
	}

	/**
	 * Runs {@code threadsPerNode} threads on each node until {@code total} jobs completed;
	 * {@code limited} counts the limited jobs of a claim, {@code sample} reads the database.
	 */
	static Result run(List<JdbcJobStore> nodes, int threadsPerNode, int total, Claimer claimer,
			ToIntFunction<List<Job>> limited, Callable<Long> sample) throws Exception {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger maxRunning = new AtomicInteger();
		AtomicInteger completed = new AtomicInteger();
		AtomicBoolean done = new AtomicBoolean();
		ExecutorService threads = Executors.newFixedThreadPool(nodes.size() * threadsPerNode + 1);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int n = 0; n < nodes.size(); n++) {
				JdbcJobStore node = nodes.get(n);
				for (int t = 0; t < threadsPerNode; t++) {
					int nodeIndex = n;
					int thread = t;
					futures.add(threads.submit(() -> {
						go.await();
						while (completed.get() < total) {
							List<Job> jobs = claimer.claim(node, nodeIndex, thread);
							if (jobs.isEmpty()) {
								Thread.sleep(2);
								continue;
							}
							int counted = limited.applyAsInt(jobs);
							maxRunning.accumulateAndGet(running.addAndGet(counted), Math::max);
							Thread.sleep(3);
							running.addAndGet(-counted);
							completed.addAndGet(node.complete(jobs, false).size());
						}
						return null;
					}));
				}
			}
			List<Long> samples = new CopyOnWriteArrayList<>();
			Future<?> sampler = threads.submit(() -> {
				go.await();
				while (!done.get()) {
					samples.add(sample.call());
				}
				return null;
			});
			go.countDown();
			for (Future<?> future : futures) {
				future.get();
			}
			done.set(true);
			sampler.get();
			return new Result(maxRunning.get(), samples, completed.get());
		}
		finally {
			done.set(true);
			threads.shutdownNow();
		}
	}

}
