package dev.ojs.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.ojs.cron.CronStore;
import dev.ojs.cron.StoredSchedule;
import dev.ojs.job.JobState;

/**
 * A {@link CronStore} that forwards every call to another, after {@link #check()}: tests
 * make a node's store fail or change one step by overriding.
 */
public class ForwardingCronStore implements CronStore {

	protected final CronStore store;

	public ForwardingCronStore(CronStore store) {
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
	public List<StoredSchedule> findDue(Instant now, int limit) {
		check();
		return this.store.findDue(now, limit);
	}

	@Override
	public List<StoredSchedule> findQueued(int limit) {
		check();
		return this.store.findQueued(limit);
	}

	@Override
	public Optional<StoredSchedule> find(String name) {
		check();
		return this.store.find(name);
	}

	@Override
	public List<StoredSchedule> findAll() {
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
	public StoredSchedule save(String name, Function<@Nullable StoredSchedule, StoredSchedule> change) {
		check();
		return this.store.save(name, change);
	}

	@Override
	public boolean delete(String name) {
		check();
		return this.store.delete(name);
	}

}
