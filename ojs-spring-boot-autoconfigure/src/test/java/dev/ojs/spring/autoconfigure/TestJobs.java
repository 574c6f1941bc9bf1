package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.worker.JobExecution;

/**
 * Jobs and executions for unit tests that run handlers without a worker.
 */
final class TestJobs {

	private TestJobs() {
	}

	static Job job(String type, String argsJson) {
		return job(type, argsJson, 1);
	}

	static Job job(String type, String argsJson, int attempt) {
		Instant now = Instant.now();
		return new Job("0190f5f0-0000-7000-8000-000000000001", type, "default", argsJson, "{}", 0, JobState.ACTIVE,
				attempt, 3, RetryPolicy.DEFAULT, List.of(), false, null, now, now, now, now, null, null,
				"test-node", now.plus(Duration.ofMinutes(1)));
	}

	static TestExecution execution(String type, String argsJson) {
		return new TestExecution(job(type, argsJson));
	}

	static final class TestExecution implements JobExecution {

		private final Job job;

		int heartbeats;

		TestExecution(Job job) {
			this.job = job;
		}

		@Override
		public Job job() {
			return this.job;
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
