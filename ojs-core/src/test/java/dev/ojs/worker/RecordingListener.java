package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * Records every event a worker reports.
 */
class RecordingListener implements JobListener {

	/**
	 * One reported outcome.
	 *
	 * @param kind completed, retrying, discarded or deadLettered
	 * @param job the job as claimed
	 * @param error the error, or {@code null}
	 * @param nextRetryAt for retrying
	 * @param delay for retrying
	 */
	record Event(String kind, Job job, JobError error, Instant nextRetryAt, Duration delay) {
	}

	final List<Event> events = new CopyOnWriteArrayList<>();

	@Override
	public void completed(Job job, Duration handlerDuration) {
		this.events.add(new Event("completed", job, null, null, null));
	}

	@Override
	public void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
		this.events.add(new Event("retrying", job, error, nextRetryAt, delay));
	}

	@Override
	public void discarded(Job job, JobError error, Duration handlerDuration) {
		this.events.add(new Event("discarded", job, error, null, null));
	}

	@Override
	public void deadLettered(Job job, JobError error, Duration handlerDuration) {
		this.events.add(new Event("deadLettered", job, error, null, null));
	}

	List<Event> of(String jobId) {
		return this.events.stream().filter((event) -> event.job().id().equals(jobId)).toList();
	}

	List<String> kinds(String jobId) {
		return of(jobId).stream().map(Event::kind).toList();
	}

}
