package dev.ojs.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.recurring.StoredRecurringJob;

/**
 * A {@link RecurringJobStore} that forwards every call to another, after {@link #check()}: tests
 * make a node's store fail or change one step by overriding.
 */
public class ForwardingRecurringJobStore implements RecurringJobStore {

	protected final RecurringJobStore store;

	public ForwardingRecurringJobStore(RecurringJobStore store) {
		this.store = store;
	}

	/** Runs before every call; throws to make the store fail. */
	protected void check() {
	}

	@Override
	public Instant now() {
		check();
		return this.store.now();
	}

	@Override
	public boolean holdLease(String nodeId, Duration ttl) {
		check();
		return this.store.holdLease(nodeId, ttl);
	}

	@Override
	public void releaseLease(String nodeId) {
		check();
		this.store.releaseLease(nodeId);
	}

	@Override
	public Optional<String> leaseHolder() {
		check();
		return this.store.leaseHolder();
	}

	@Override
	public List<StoredRecurringJob> findDue(Instant now, int limit) {
		check();
		return this.store.findDue(now, limit);
	}

	@Override
	public List<StoredRecurringJob> findQueued(int limit) {
		check();
		return this.store.findQueued(limit);
	}

	@Override
	public Optional<StoredRecurringJob> find(String name) {
		check();
		return this.store.find(name);
	}

	@Override
	public List<StoredRecurringJob> findAll() {
		check();
		return this.store.findAll();
	}

	@Override
	public @Nullable JobState jobState(String jobId) {
		check();
		return this.store.jobState(jobId);
	}

	@Override
	public Optional<Advanced> advance(Advance advance) {
		check();
		return this.store.advance(advance);
	}

	@Override
	public StoredRecurringJob save(String name, Function<@Nullable StoredRecurringJob, StoredRecurringJob> change) {
		check();
		return this.store.save(name, change);
	}

	@Override
	public boolean delete(String name) {
		check();
		return this.store.delete(name);
	}

}
