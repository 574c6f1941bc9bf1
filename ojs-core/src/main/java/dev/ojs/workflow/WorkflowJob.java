package dev.ojs.workflow;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;

/**
 * One job of a workflow: a step (by its index) or a callback.
 *
 * @param jobId the job's id
 * @param type the job's type
 * @param role step or callback
 * @param step the step's index; {@code 0} for a callback
 * @param state the job's state as read, or {@code null} for a job being created
 */
public record WorkflowJob(String jobId, String type, WorkflowRole role, int step, @Nullable JobState state) {

}
