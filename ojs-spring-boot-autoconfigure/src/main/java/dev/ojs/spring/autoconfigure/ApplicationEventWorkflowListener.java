package dev.ojs.spring.autoconfigure;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.event.OjsWorkflowEvent;
import dev.ojs.spring.event.WorkflowCancelledEvent;
import dev.ojs.spring.event.WorkflowCompletedEvent;
import dev.ojs.spring.event.WorkflowFailedEvent;
import dev.ojs.spring.event.WorkflowStartedEvent;
import dev.ojs.spring.event.WorkflowStepCompletedEvent;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;
import dev.ojs.workflow.WorkflowListener;
import dev.ojs.workflow.WorkflowStore;

/**
 * Publishes the workflow store's transitions as Spring application events, synchronously on
 * the thread that committed them. Exceptions thrown by event listeners are logged, never
 * propagated to the job's outcome, which has committed.
 */
public class ApplicationEventWorkflowListener implements WorkflowListener {

	private static final Log logger = LogFactory.getLog(ApplicationEventWorkflowListener.class);

	private final ApplicationEventPublisher publisher;

	private final WorkflowStore workflows;

	private final JobStore jobs;

	/**
	 * @param workflows and {@code jobs}: where the failed step of a failed workflow and its
	 * last error are read
	 */
	public ApplicationEventWorkflowListener(ApplicationEventPublisher publisher, WorkflowStore workflows,
			JobStore jobs) {
		this.publisher = publisher;
		this.workflows = workflows;
		this.jobs = jobs;
	}

	@Override
	public void onStarted(Workflow workflow) {
		publish(new WorkflowStartedEvent(workflow));
	}

	@Override
	public void onStepCompleted(Workflow workflow, WorkflowJob step, Duration duration) {
		publish(new WorkflowStepCompletedEvent(workflow, step, duration));
	}

	@Override
	public void onEnded(Workflow workflow) {
		publish(switch (workflow.state()) {
			case COMPLETED -> new WorkflowCompletedEvent(workflow);
			case CANCELLED -> new WorkflowCancelledEvent(workflow);
			default -> failed(workflow);
		});
	}

	/** The failed event, with the first failed step and its last error. */
	private WorkflowFailedEvent failed(Workflow workflow) {
		WorkflowJob step = this.workflows.jobs(workflow.id())
			.stream()
			.filter((member) -> member.state() == JobState.DISCARDED)
			.findFirst()
			.orElse(null);
		ErrorEntry error = (step != null) ? this.jobs.find(step.jobId()).map(Job::lastError).orElse(null) : null;
		return new WorkflowFailedEvent(workflow, step, error);
	}

	private void publish(OjsWorkflowEvent event) {
		try {
			this.publisher.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("Listener of " + event + " failed", ex);
		}
	}

}
