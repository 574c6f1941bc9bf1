package dev.ojs.bench.chaos;

/**
 * A job the coordinator enqueued, and how it is meant to behave.
 *
 * @param id the job id returned by the enqueue
 * @param failFirst the handler fails attempts {@code 1..failFirst} (0 = never fails)
 * @param maxAttempts the job's effective {@code max_attempts}
 * @param badArgs whether its args deliberately do not bind to the handler method
 */
public record ExpectedJob(String id, int failFirst, int maxAttempts, boolean badArgs) {

}
