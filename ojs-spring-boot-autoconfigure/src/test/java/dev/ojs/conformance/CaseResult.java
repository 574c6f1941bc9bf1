package dev.ojs.conformance;

import java.util.List;

/**
 * What running a case found.
 *
 * @param testCase the case
 * @param outcome passed, failed (an assertion), or error (a setup step failed)
 * @param failures every unmet expectation, in step order
 * @param durationMs how long the case ran, its delays included
 */
record CaseResult(ConformanceCase testCase, Outcome outcome, List<Failure> failures, long durationMs) {

	/** How a case ended. */
	enum Outcome {

		PASSED, FAILED, ERROR

	}

	boolean passed() {
		return this.outcome == Outcome.PASSED;
	}

	/** The first failure in one line: the gap it points at. */
	String firstFailure() {
		return this.failures.isEmpty() ? "" : this.failures.get(0).describe();
	}

}
