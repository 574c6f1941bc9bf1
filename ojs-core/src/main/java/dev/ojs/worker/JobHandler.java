package dev.ojs.worker;

/**
 * Runs one attempt of a job. Returning normally completes the job; throwing fails the
 * attempt, and the registration's {@link ErrorClassifier} turns the exception into a
 * {@link dev.ojs.retry.JobError} for the retry policy.
 */
@FunctionalInterface
public interface JobHandler {

	void handle(Attempt attempt) throws Exception;

}
