package dev.ojs.worker;

import java.util.Map;
import java.util.Optional;

import dev.ojs.retry.RetryPolicy;

/**
 * Policies for tests of worker parts: no handler policy, so each job runs with its own
 * fields over the spec defaults.
 */
final class TestPolicies {

	private TestPolicies() {
	}

	static RetryPolicies jobsOwn() {
		return new RetryPolicies(Map.of(), RetryPolicy.DEFAULT, (type) -> Optional.empty());
	}

}
