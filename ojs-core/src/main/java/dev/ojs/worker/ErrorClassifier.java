package dev.ojs.worker;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * Turns a handler's exception into the OJS error (type, message, code, details) that the
 * retry policy decides on.
 */
@FunctionalInterface
public interface ErrorClassifier {

	JobError classify(Job job, Throwable failure);

}
