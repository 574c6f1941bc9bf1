package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;

/**
 * A {@link WorkerStore} that passes every call to another: tests override the calls they
 * want to hold up, fail or record, and the {@link FakeWorkerStore} behind does the rest.
 */
class ForwardingWorkerStore implements WorkerStore {

	final FakeWorkerStore delegate;

	ForwardingWorkerStore(FakeWorkerStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public Instant now() {
		return this.delegate.now();
	}

	@Override
	public Optional<Job> find(String id) {
		return this.delegate.find(id);
	}

	@Override
	public List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit) {
		return this.delegate.claim(nodeId, queue, visibilityByType, limit);
	}

	@Override
	public Set<String> complete(List<Job> jobs, boolean delete) {
		return this.delegate.complete(jobs, delete);
	}

	@Override
	public Set<String> fail(List<AttemptFailure> failures) {
		return this.delegate.fail(failures);
	}

	@Override
	public Set<String> release(List<Job> jobs) {
		return this.delegate.release(jobs);
	}

	@Override
	public int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		return this.delegate.heartbeat(nodeId, ids, lockedUntil);
	}

	@Override
	public List<Job> reservationsHeld(List<Job> jobs) {
		return this.delegate.reservationsHeld(jobs);
	}

	@Override
	public Set<String> cancelled(List<Job> jobs) {
		return this.delegate.cancelled(jobs);
	}

	@Override
	public Set<String> pausedQueues() {
		return this.delegate.pausedQueues();
	}

	@Override
	public List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide) {
		return this.delegate.reapExpired(limit, decide);
	}

	@Override
	public List<Job> expire(int limit) {
		return this.delegate.expire(limit);
	}

	@Override
	public List<Instant> nextDueTimes(String queue, int limit) {
		return this.delegate.nextDueTimes(queue, limit);
	}

	@Override
	public long prune(RetentionSettings retention, Duration budget) {
		return this.delegate.prune(retention, budget);
	}

	@Override
	public boolean isTransient(Throwable failure) {
		return this.delegate.isTransient(failure);
	}

	@Override
	public Optional<AutoCloseable> listenForInserts(Consumer<String> onInsert) {
		return this.delegate.listenForInserts(onInsert);
	}

	@Override
	public void workerStarting(int engineConnections, int handlerSlots) {
		this.delegate.workerStarting(engineConnections, handlerSlots);
	}

}
