package dev.ojs.bench.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosVerifierTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private static final long KILLED = 111;

	private final ChaosVerifier verifier = new ChaosVerifier(Duration.ofSeconds(5), Duration.ofSeconds(1));

	private final List<Execution> executions = new ArrayList<>();

	private long seq;

	@Test
	void cleanRunPassesEveryCheck() {
		// flaky job: fails attempt 1, killed during attempt 2, completes attempt 3
		ExpectedJob flaky = new ExpectedJob("a", 1, 5, false);
		run("a", 1, 200, 0, 10, Execution.FAILED);
		run("a", 2, KILLED, 300, null, null);
		run("a", 3, 201, 5_400, 5_410, Execution.OK);
		ExpectedJob plain = new ExpectedJob("b", 0, 5, false);
		run("b", 1, 200, 0, 5, Execution.OK);
		ExpectedJob bad = new ExpectedJob("c", 0, 5, true);
		Map<String, Job> jobs = Map.of("a", job("a", JobState.COMPLETED, 3, 5), "b", job("b", JobState.COMPLETED, 1, 5),
				"c", job("c", JobState.DISCARDED, 1, 5, error(ChaosVerifier.ARGS_INVALID, ErrorCode.FAIL)));
		List<Check> checks = this.verifier.verify(List.of(flaky, plain, bad), jobs, this.executions, Set.of(KILLED));
		assertThat(checks).noneMatch(Check::failed);
		assertThat(value(checks, "executions killed in flight")).isEqualTo("1");
	}

	@Test
	void lostAndNonTerminalJobsFail() {
		run("a", 1, 200, 0, null, null);
		Map<String, Job> jobs = Map.of("b", job("b", JobState.RETRYABLE, 1, 5));
		List<Check> checks = this.verifier.verify(
				List.of(new ExpectedJob("a", 0, 5, false), new ExpectedJob("b", 1, 5, false)), jobs, this.executions,
				Set.of());
		assertThat(status(checks, "jobs lost")).isEqualTo(Check.Status.FAIL);
		assertThat(value(checks, "jobs lost")).isEqualTo("1");
		assertThat(status(checks, "jobs not in a terminal state")).isEqualTo(Check.Status.FAIL);
	}

	@Test
	void overlappingExecutionsOnDifferentProcessesFail() {
		run("a", 1, 200, 0, 1_000, Execution.FAILED);
		run("a", 2, 201, 500, 900, Execution.OK);
		List<Check> checks = this.verifier.verify(List.of(new ExpectedJob("a", 1, 5, false)),
				Map.of("a", job("a", JobState.COMPLETED, 2, 5)), this.executions, Set.of());
		assertThat(status(checks, "overlapping executions while both held a valid reservation"))
			.isEqualTo(Check.Status.FAIL);
	}

	@Test
	void executionOutlivingItsReservationMayOverlapItsSuccessor() {
		// attempt 1 lost its reservation (no heartbeat for 5 s); attempt 2 ran meanwhile
		run("a", 1, 200, 0, 7_000, Execution.FAILED);
		run("a", 2, 201, 6_000, 6_100, Execution.OK);
		List<Check> checks = this.verifier.verify(List.of(new ExpectedJob("a", 1, 5, false)),
				Map.of("a", job("a", JobState.COMPLETED, 2, 5)), this.executions, Set.of());
		assertThat(checks).noneMatch(Check::failed);
	}

	@Test
	void killedExecutionRetriedBeforeItsReservationExpiredFails() {
		run("a", 1, KILLED, 0, null, null);
		run("a", 2, 201, 2_000, 2_100, Execution.OK);
		List<Check> checks = this.verifier.verify(List.of(new ExpectedJob("a", 0, 5, false)),
				Map.of("a", job("a", JobState.COMPLETED, 2, 5)), this.executions, Set.of(KILLED));
		assertThat(status(checks, "killed executions retried before their reservation expired"))
			.isEqualTo(Check.Status.FAIL);
	}

	@Test
	void moreExecutionsThanMaxAttemptsFail() {
		run("a", 1, KILLED, 0, null, null);
		run("a", 2, KILLED, 6_000, null, null);
		run("a", 3, 201, 12_000, 12_100, Execution.FAILED);
		run("a", 3, 202, 12_200, 12_300, Execution.OK);
		List<Check> checks = this.verifier.verify(List.of(new ExpectedJob("a", 2, 2, false)),
				Map.of("a", job("a", JobState.COMPLETED, 3, 2)), this.executions, Set.of(KILLED));
		assertThat(status(checks, "jobs with more executions than max_attempts (RET-01, killed ones count: RET-12)"))
			.isEqualTo(Check.Status.FAIL);
		assertThat(status(checks, "attempt numbers executed twice")).isEqualTo(Check.Status.FAIL);
	}

	@Test
	void policyConsistency() {
		ExpectedJob flaky = new ExpectedJob("a", 1, 3, false);
		Execution failed = new Execution(1, "a", 1, 200, T0, T0.plusMillis(5), Execution.FAILED);
		Execution ok = new Execution(2, "a", 2, 200, T0.plusSeconds(1), T0.plusSeconds(1), Execution.OK);
		assertThat(ChaosVerifier.inconsistency(flaky, job("a", JobState.COMPLETED, 2, 3), List.of(failed, ok))).isNull();
		assertThat(ChaosVerifier.inconsistency(flaky, job("a", JobState.COMPLETED, 1, 3), List.of(failed)))
			.contains("did not succeed");
		assertThat(ChaosVerifier.inconsistency(flaky, job("a", JobState.DISCARDED, 2, 3), List.of(failed)))
			.contains("discarded at attempt 2 of 3");
		assertThat(ChaosVerifier.inconsistency(flaky, job("a", JobState.DISCARDED, 3, 3), List.of(failed))).isNull();
		Job deadLetter = job("a", JobState.DISCARDED, 3, 3, true);
		assertThat(ChaosVerifier.inconsistency(flaky, deadLetter, List.of(failed))).contains("dead-lettered");
		assertThat(ChaosVerifier.inconsistency(flaky, job("a", JobState.CANCELLED, 1, 3), List.of(failed)))
			.contains("unexpected terminal state cancelled");
		ExpectedJob bad = new ExpectedJob("c", 0, 3, true);
		assertThat(ChaosVerifier.inconsistency(bad, job("c", JobState.DISCARDED, 1, 3, error("x.y", ErrorCode.RETRY)),
				List.of()))
			.contains(ChaosVerifier.ARGS_INVALID);
		assertThat(ChaosVerifier.inconsistency(bad, job("c", JobState.COMPLETED, 1, 3), List.of()))
			.contains("expected discarded");
	}

	private void run(String jobId, int attempt, long pid, long startMs, Integer endMs, String outcome) {
		this.executions.add(new Execution(++this.seq, jobId, attempt, pid, T0.plusMillis(startMs),
				(endMs != null) ? T0.plusMillis(endMs) : null, outcome));
	}

	private static Job job(String id, JobState state, int attempt, int maxAttempts, ErrorEntry... errors) {
		return job(id, state, attempt, maxAttempts, false, errors);
	}

	private static Job job(String id, JobState state, int attempt, int maxAttempts, boolean deadLetter,
			ErrorEntry... errors) {
		return new Job(id, "chaos.work", "chaos", "[]", "{}", 0, state, attempt, maxAttempts, RetryPolicy.DEFAULT,
				List.of(errors), deadLetter, null, T0, T0, T0, T0, null, null, null, null);
	}

	private static ErrorEntry error(String type, ErrorCode code) {
		return new ErrorEntry(1, type, "msg", code, T0, Map.of());
	}

	private static Check find(List<Check> checks, String name) {
		return checks.stream().filter((check) -> check.name().equals(name)).findFirst().orElseThrow();
	}

	private static Check.Status status(List<Check> checks, String name) {
		return find(checks, name).status();
	}

	private static String value(List<Check> checks, String name) {
		return find(checks, name).value();
	}

}
