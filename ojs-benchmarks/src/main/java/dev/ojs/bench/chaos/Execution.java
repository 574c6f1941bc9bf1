package dev.ojs.bench.chaos;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One recorded execution of a job handler, from the harness's side table. The start row is
 * written in its own autocommit statement before the handler does any work, so an execution
 * killed half-way still has its row, with no end.
 *
 * @param seq insertion order
 * @param jobId the job
 * @param attempt the attempt number the handler was given
 * @param pid the worker process that ran it
 * @param startedAt database clock when the handler started
 * @param endedAt database clock when it finished, or {@code null} when it never finished
 * (killed, or the end could not be written)
 * @param outcome {@code ok}, {@code failed}, or {@code null} with {@code endedAt}
 */
public record Execution(long seq, String jobId, int attempt, long pid, Instant startedAt, @Nullable Instant endedAt,
		@Nullable String outcome) {

	public static final String OK = "ok";

	public static final String FAILED = "failed";

	public boolean finished() {
		return this.endedAt != null;
	}

	public boolean succeeded() {
		return OK.equals(this.outcome);
	}

}
