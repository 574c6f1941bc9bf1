package dev.ojs.bench.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;

/**
 * Checks a finished harness run: the jobs the coordinator enqueued, their stored final
 * state, and every execution the handlers recorded.
 * <p>
 * Reservation windows: a finished execution certainly held a valid reservation from its
 * start until {@code min(end, start + visibility timeout)} (the claim set
 * {@code locked_until} before the start; heartbeats only extend it). An execution with no
 * end (its process was killed, or the end could not be written) is taken to hold its
 * reservation until the next attempt of the job started, as the reservation must have
 * expired by then (RET-12).
 */
public final class ChaosVerifier {

	/** Error type of a job whose args no longer bind to the handler method. */
	public static final String ARGS_INVALID = "ojs.args_invalid";

	private static final int EXAMPLES = 5;

	private final Duration visibilityTimeout;

	private final Duration claimTolerance;

	/**
	 * @param visibilityTimeout the workers' reservation length
	 * @param claimTolerance how much earlier than its start an execution may have been claimed
	 */
	public ChaosVerifier(Duration visibilityTimeout, Duration claimTolerance) {
		this.visibilityTimeout = visibilityTimeout;
		this.claimTolerance = claimTolerance;
	}

	/**
	 * @param expected the jobs enqueued
	 * @param jobs the stored jobs by id (a missing id is a lost job)
	 * @param executions every recorded execution
	 * @param killedPids the worker processes the coordinator killed
	 * @return the checks, failures first within their kind
	 */
	public List<Check> verify(List<ExpectedJob> expected, Map<String, Job> jobs, List<Execution> executions,
			Set<Long> killedPids) {
		Map<String, List<Execution>> byJob = new HashMap<>();
		for (Execution execution : executions) {
			byJob.computeIfAbsent(execution.jobId(), (id) -> new ArrayList<>()).add(execution);
		}
		byJob.values().forEach((list) -> list.sort(Comparator.comparing(Execution::startedAt)
			.thenComparingLong(Execution::seq)));
		Violations lost = new Violations();
		Violations notTerminal = new Violations();
		Violations inconsistent = new Violations();
		Violations tooMany = new Violations();
		Violations duplicateAttempts = new Violations();
		Violations overlaps = new Violations();
		Violations earlyRetries = new Violations();
		int killedInFlight = 0;
		int unfinishedOnLiveProcess = 0;
		int reExecutedAfterSuccess = 0;
		Set<String> expectedIds = new HashSet<>();
		for (ExpectedJob job : expected) {
			expectedIds.add(job.id());
			List<Execution> runs = byJob.getOrDefault(job.id(), List.of());
			Job stored = jobs.get(job.id());
			if (stored == null) {
				lost.add(job.id() + " (" + runs.size() + " executions recorded)");
				continue;
			}
			if (!stored.state().isTerminal()) {
				notTerminal.add(job.id() + " is " + stored.state().value() + " at attempt " + stored.attempt());
			}
			String inconsistency = inconsistency(job, stored, runs);
			if (inconsistency != null) {
				inconsistent.add(job.id() + ": " + inconsistency);
			}
			checkAttempts(job, stored, runs, tooMany, duplicateAttempts);
			checkOverlaps(runs, overlaps);
			for (int i = 0; i < runs.size(); i++) {
				Execution run = runs.get(i);
				if (run.finished()) {
					if (run.succeeded() && i < runs.size() - 1) {
						reExecutedAfterSuccess++;
					}
					continue;
				}
				if (!killedPids.contains(run.pid())) {
					unfinishedOnLiveProcess++;
					continue;
				}
				killedInFlight++;
				if (i + 1 < runs.size()) {
					Instant next = runs.get(i + 1).startedAt();
					Instant earliest = run.startedAt().plus(this.visibilityTimeout).minus(this.claimTolerance);
					if (next.isBefore(earliest)) {
						earlyRetries.add(job.id() + " attempt " + run.attempt() + " killed in pid " + run.pid()
								+ " started " + run.startedAt() + ", attempt " + runs.get(i + 1).attempt()
								+ " started " + next + " (" + Duration.between(run.startedAt(), next).toMillis()
								+ " ms later)");
					}
				}
			}
		}
		int strays = 0;
		for (String id : byJob.keySet()) {
			if (!expectedIds.contains(id)) {
				strays++;
			}
		}
		List<Check> checks = new ArrayList<>();
		checks.add(lost.check("jobs lost"));
		checks.add(notTerminal.check("jobs not in a terminal state"));
		checks.add(inconsistent.check("terminal state inconsistent with the job's policy"));
		checks.add(tooMany.check("jobs with more executions than max_attempts (RET-01, killed ones count: RET-12)"));
		checks.add(duplicateAttempts.check("attempt numbers executed twice"));
		checks.add(overlaps.check("overlapping executions while both held a valid reservation"));
		checks.add(earlyRetries.check("killed executions retried before their reservation expired"));
		checks.add(Check.of("executions of jobs that were never enqueued", strays == 0, strays, ""));
		checks.add(Check.info("executions recorded", executions.size(), "rows in the side table"));
		checks.add(Check.info("executions killed in flight", killedInFlight, "no end, process SIGKILLed"));
		checks.add(Check.info("executions whose end was not recorded on a live process", unfinishedOnLiveProcess,
				"e.g. the end update failed while PostgreSQL restarted"));
		checks.add(Check.info("jobs run again after a successful execution", reExecutedAfterSuccess,
				"completion not stored before the reservation was lost (at-least-once)"));
		return checks;
	}

	/**
	 * Why a job's stored terminal state is not what its policy and recorded executions imply,
	 * or {@code null} when it is consistent.
	 */
	static @Nullable String inconsistency(ExpectedJob job, Job stored, List<Execution> runs) {
		if (!stored.state().isTerminal()) {
			return null; // reported as not terminal
		}
		ErrorEntry lastError = stored.lastError();
		if (job.badArgs()) {
			if (stored.state() != JobState.DISCARDED || stored.deadLetter()) {
				return "args do not bind, expected discarded but is " + describe(stored);
			}
			if (lastError == null || !ARGS_INVALID.equals(lastError.type()) || lastError.code() != ErrorCode.FAIL) {
				return "args do not bind, expected last error " + ARGS_INVALID + "/FAIL but got "
						+ ((lastError != null) ? lastError.type() + "/" + lastError.code() : "none");
			}
			if (!runs.isEmpty()) {
				return "args do not bind, yet the handler ran " + runs.size() + " time(s)";
			}
			return null;
		}
		if (stored.maxAttempts() != job.maxAttempts()) {
			return "stored max_attempts " + stored.maxAttempts() + " but enqueued with " + job.maxAttempts();
		}
		Execution last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
		switch (stored.state()) {
			case COMPLETED -> {
				if (last == null || !last.succeeded()) {
					return "completed but its last recorded execution "
							+ ((last == null) ? "does not exist" : "did not succeed (attempt " + last.attempt() + ")");
				}
				if (last.attempt() <= job.failFirst()) {
					return "completed by attempt " + last.attempt() + " which the handler fails";
				}
				if (stored.attempt() != last.attempt()) {
					return "completed at stored attempt " + stored.attempt() + " but attempt " + last.attempt()
							+ " succeeded";
				}
				return null;
			}
			case DISCARDED -> {
				if (stored.deadLetter()) {
					return "dead-lettered although on_exhaustion is discard";
				}
				if (stored.attempt() != job.maxAttempts()) {
					return "discarded at attempt " + stored.attempt() + " of " + job.maxAttempts()
							+ " with a retryable error " + ((lastError != null) ? lastError.type() : "(none)");
				}
				for (Execution run : runs) {
					if (run.attempt() == stored.attempt() && run.succeeded()) {
						return "discarded although its final attempt " + run.attempt() + " succeeded";
					}
				}
				return null;
			}
			default -> {
				return "unexpected terminal state " + describe(stored);
			}
		}
	}

	private static void checkAttempts(ExpectedJob job, Job stored, List<Execution> runs, Violations tooMany,
			Violations duplicateAttempts) {
		int max = job.maxAttempts();
		int highest = runs.stream().mapToInt(Execution::attempt).max().orElse(0);
		if (runs.size() > max || highest > max || stored.attempt() > max) {
			tooMany.add(job.id() + ": " + runs.size() + " executions, highest attempt " + highest + ", stored attempt "
					+ stored.attempt() + ", max_attempts " + max);
		}
		Set<Integer> seen = new HashSet<>();
		for (Execution run : runs) {
			if (!seen.add(run.attempt())) {
				duplicateAttempts.add(job.id() + " attempt " + run.attempt() + " ran more than once");
			}
		}
	}

	private void checkOverlaps(List<Execution> runs, Violations overlaps) {
		for (int i = 0; i < runs.size(); i++) {
			Execution first = runs.get(i);
			Instant validUntil = validUntil(runs, i);
			for (int j = i + 1; j < runs.size(); j++) {
				Execution second = runs.get(j);
				if (!second.startedAt().isBefore(validUntil)) {
					break;
				}
				overlaps.add(first.jobId() + ": attempt " + first.attempt() + " in pid " + first.pid() + " ["
						+ first.startedAt() + " .. " + first.endedAt() + "] overlaps attempt " + second.attempt()
						+ " in pid " + second.pid() + " started " + second.startedAt());
			}
		}
	}

	/** Until when execution {@code i} certainly held a valid reservation (see class doc). */
	Instant validUntil(List<Execution> runs, int i) {
		Execution run = runs.get(i);
		Instant reservationBound = run.startedAt().plus(this.visibilityTimeout);
		if (run.finished()) {
			return run.endedAt().isBefore(reservationBound) ? run.endedAt() : reservationBound;
		}
		return (i + 1 < runs.size()) ? runs.get(i + 1).startedAt() : reservationBound;
	}

	private static String describe(Job job) {
		return job.state().value() + (job.deadLetter() ? " (dead letter)" : "") + " at attempt " + job.attempt();
	}

	/** Counts violations and keeps the first few as examples. */
	private static final class Violations {

		private int count;

		private final List<String> examples = new ArrayList<>();

		void add(String example) {
			this.count++;
			if (this.examples.size() < EXAMPLES) {
				this.examples.add(example);
			}
		}

		Check check(String name) {
			return Check.of(name, this.count == 0, this.count, String.join("; ", this.examples));
		}

	}

}
