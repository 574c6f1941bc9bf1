package dev.ojs.spring.autoconfigure;

import java.util.Map;

import dev.ojs.job.Job;
import dev.ojs.testsupport.StoredJobs;
import dev.ojs.worker.Attempt;

/**
 * Attempts for unit tests that run handlers without a worker.
 */
final class TestJobs {

	private TestJobs() {
	}

	static TestAttempt attempt(String type, String argsJson) {
		return new TestAttempt(StoredJobs.job(type).args(argsJson).build());
	}

	static final class TestAttempt implements Attempt {

		private final Job job;

		int heartbeats;

		TestAttempt(Job job) {
			this.job = job;
		}

		@Override
		public Job job() {
			return this.job;
		}

		@Override
		public dev.ojs.retry.RetryPolicy retryPolicy() {
			return this.job.retryPolicy().mergedOver(dev.ojs.retry.RetryPolicy.DEFAULT).effective();
		}

		@Override
		public void heartbeat() {
			this.heartbeats++;
		}

	}

	static Map<String, Object> details(Object... keyValues) {
		java.util.LinkedHashMap<String, Object> map = new java.util.LinkedHashMap<>();
		for (int i = 0; i < keyValues.length; i += 2) {
			map.put((String) keyValues[i], keyValues[i + 1]);
		}
		return map;
	}

}
