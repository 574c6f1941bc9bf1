package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;

import dev.ojs.job.JobState;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.recurring.StoredRecurringJob;

/**
 * The {@link RecurringJobStore} on the tables {@code <prefix>schedules} and {@code <prefix>leases}
 * next to a {@link JdbcJobStore}'s job table: an occurrence's job is inserted through the job store
 * in the transaction that moves its schedule on, so both commit or neither.
 */
public class JdbcRecurringJobStore implements RecurringJobStore {

	private static final int SAVE_TRIES = 3;

	private final JdbcJobStore jobs;

	private final RecurringJobSql recurringJobs;

	private final LeaseSql leases;

	public JdbcRecurringJobStore(JdbcJobStore jobs) {
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.recurringJobs = jobs.dialect().recurringJobs();
		this.leases = jobs.dialect().leases();
	}

	@Override
	public Instant now() {
		return this.jobs.now();
	}

	@Override
	public boolean holdLease(String nodeId, Duration ttl) {
		try {
			return this.leases.renew(nodeId, ttl) || this.leases.insert(nodeId, ttl);
		}
		catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
			// another node created it at the same moment (on MariaDB, where the row was deleted
			// moments before, a racing update or insert may be a deadlock's victim): it holds it
			return false;
		}
	}

	@Override
	public void releaseLease(String nodeId) {
		this.leases.release(nodeId);
	}

	@Override
	public Optional<String> leaseHolder() {
		return Optional.ofNullable(this.leases.holder());
	}

	@Override
	public List<StoredRecurringJob> findDue(Instant now, int limit) {
		return this.recurringJobs.findDue(now, limit);
	}

	@Override
	public List<StoredRecurringJob> findQueued(int limit) {
		return this.recurringJobs.findQueued(limit);
	}

	@Override
	public Optional<StoredRecurringJob> find(String name) {
		return Optional.ofNullable(this.recurringJobs.find(name));
	}

	@Override
	public List<StoredRecurringJob> findAll() {
		return this.recurringJobs.findAll();
	}

	@Override
	public @Nullable JobState jobState(String jobId) {
		String state = this.jobs.dialect().jobs().state(jobId);
		return (state != null) ? JobState.fromValue(state) : null;
	}

	@Override
	public Optional<Advanced> advance(Advance advance) {
		return Optional.ofNullable(this.recurringJobs.inTransaction((status) -> advanceInTransaction(advance)));
	}

	/**
	 * Commits the occurrences together: one commit (one WAL flush) for many occurrences. Rows are locked
	 * in name order, so evaluators that race for overlapping occurrences cannot deadlock. When one
	 * occurrence fails, everything is rolled back and each occurrence runs in its own transaction.
	 */
	@Override
	public List<Optional<Advanced>> advanceAll(List<Advance> advances) {
		if (advances.size() > 1) {
			List<Integer> order = IntStream.range(0, advances.size())
				.boxed()
				.sorted(Comparator.comparing((i) -> advances.get(i).name()))
				.toList();
			try {
				return Objects.requireNonNull(this.recurringJobs.inTransaction((status) -> {
					List<Optional<Advanced>> outcomes = new ArrayList<>(
							Collections.nCopies(advances.size(), Optional.<Advanced>empty()));
					for (int i : order) {
						outcomes.set(i, Optional.ofNullable(advanceInTransaction(advances.get(i))));
					}
					return outcomes;
				}));
			}
			catch (RuntimeException ex) {
				// one occurrence failed (its job rejected, a deadlock): each on its own below
			}
		}
		return advances.stream().map(this::advance).toList();
	}

	private @Nullable Advanced advanceInTransaction(Advance advance) {
		if (!this.recurringJobs.advance(advance.name(), advance.expectedNextRunAt(), advance.expectedQueuedRuns(),
				advance.nextRunAt(), advance.queuedRuns(), advance.occurrenceAt(), advance.outcome(),
				advance.job() != null)) {
			return null;
		}
		if (advance.cancelJobId() != null) {
			this.jobs.cancel(advance.cancelJobId());
		}
		String jobId = null;
		if (advance.job() != null) {
			jobId = this.jobs.insert(List.of(advance.job())).get(0);
			this.recurringJobs.setLastJob(advance.name(), jobId);
		}
		return new Advanced(jobId, this.recurringJobs.runCount(advance.name()));
	}

	@Override
	public StoredRecurringJob save(String name, Function<@Nullable StoredRecurringJob, StoredRecurringJob> change) {
		for (int i = 1;; i++) {
			try {
				return Objects.requireNonNull(this.recurringJobs.inTransaction((status) -> {
					StoredRecurringJob stored = this.recurringJobs.lock(name);
					StoredRecurringJob changed = change.apply(stored);
					if (stored == null) {
						this.recurringJobs.insert(changed);
					}
					else {
						this.recurringJobs.update(changed);
					}
					return changed;
				}));
			}
			catch (DuplicateKeyException ex) {
				// registered concurrently: change that registration instead
				if (i == SAVE_TRIES) {
					throw ex;
				}
			}
		}
	}

	@Override
	public boolean delete(String name) {
		return this.recurringJobs.delete(name);
	}

}
