package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * Told of every final outcome of an attempt, after it is stored. {@code job} is the job as
 * claimed (its {@code attempt} is the attempt that ran); {@code handlerDuration} is how long
 * the handler ran ({@link Duration#ZERO} for attempts failed by the rescuer or shutdown).
 * Implementations must be fast and must not throw. Events of one attempt come once and after
 * its outcome is stored; events of successive attempts of a job may arrive out of order, as
 * the next attempt can run (on another thread or node) before the previous outcome's event
 * is delivered: use {@link Job#attempt()} to order them.
 */
public interface JobListener {

	JobListener NONE = new JobListener() {
	};

	/**
	 * An attempt starts (the job is {@code active}): on the handler thread before the handler
	 * runs, or before an external worker's fetch answers.
	 */
	default void started(Job job) {
	}

	/** A held reservation was extended to {@code visibleUntil} (a heartbeat). */
	default void heartbeat(Job job, Instant visibleUntil) {
	}

	default void completed(Job job, Duration handlerDuration) {
	}

	default void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
	}

	/** Discarded: a DISCARD or FAIL code, or exhaustion/non-retryable with on_exhaustion=discard. */
	default void discarded(Job job, JobError error, Duration handlerDuration) {
	}

	default void deadLettered(Job job, JobError error, Duration handlerDuration) {
	}

}
