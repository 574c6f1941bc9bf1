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
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.cron.CronStore;
import dev.ojs.cron.StoredSchedule;
import dev.ojs.job.JobState;

/**
 * The {@link CronStore} on the tables {@code <prefix>schedules} and {@code <prefix>leases}
 * next to a {@link JdbcJobStore}'s job table: a tick's job is inserted through the job store
 * in the transaction that moves its schedule on, so both commit or neither.
 */
public class JdbcCronStore implements CronStore {

	private static final int SAVE_TRIES = 3;

	private final JdbcJobStore jobs;

	private final CronDialect dialect;

	private final TransactionTemplate tx;

	public JdbcCronStore(JdbcJobStore jobs) {
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.dialect = new CronDialect(jobs.dialect(), jobs.settings());
		this.tx = new TransactionTemplate(new DataSourceTransactionManager(jobs.dataSource()));
		// the compare-and-set must see the row as committed by another evaluator meanwhile
		this.tx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	@Override
	public Instant now() {
		return this.jobs.now();
	}

	@Override
	public boolean holdLease(String nodeId, Duration ttl) {
		if (this.dialect.renewLease(nodeId, ttl)) {
			return true;
		}
		try {
			this.dialect.insertLease(nodeId, ttl);
			return true;
		}
		catch (DuplicateKeyException ex) {
			// another node holds it
			return false;
		}
	}

	@Override
	public void releaseLease(String nodeId) {
		this.dialect.releaseLease(nodeId);
	}

	@Override
	public Optional<String> leaseHolder() {
		return Optional.ofNullable(this.dialect.leaseHolder());
	}

	@Override
	public List<StoredSchedule> findDue(Instant now, int limit) {
		return this.dialect.findDue(now, limit);
	}

	@Override
	public List<StoredSchedule> findQueued(int limit) {
		return this.dialect.findQueued(limit);
	}

	@Override
	public Optional<StoredSchedule> find(String name) {
		return Optional.ofNullable(this.dialect.find(name, ""));
	}

	@Override
	public List<StoredSchedule> findAll() {
		return this.dialect.findAll();
	}

	@Override
	public @Nullable JobState jobState(String jobId) {
		String state = this.dialect.jobState(jobId);
		return (state != null) ? JobState.fromValue(state) : null;
	}

	@Override
	public Optional<Advanced> advance(Advance advance) {
		return Optional.ofNullable(this.tx.execute((status) -> advanceInTransaction(advance)));
	}

	/**
	 * Commits the ticks together: one commit (one WAL flush) for many ticks. Rows are locked
	 * in name order, so evaluators that race for overlapping ticks cannot deadlock. When one
	 * tick fails, everything is rolled back and each tick runs in its own transaction.
	 */
	@Override
	public List<Optional<Advanced>> advanceAll(List<Advance> advances) {
		if (advances.size() > 1) {
			List<Integer> order = IntStream.range(0, advances.size())
				.boxed()
				.sorted(Comparator.comparing((i) -> advances.get(i).name()))
				.toList();
			try {
				return Objects.requireNonNull(this.tx.execute((status) -> {
					List<Optional<Advanced>> outcomes = new ArrayList<>(
							Collections.nCopies(advances.size(), Optional.<Advanced>empty()));
					for (int i : order) {
						outcomes.set(i, Optional.ofNullable(advanceInTransaction(advances.get(i))));
					}
					return outcomes;
				}));
			}
			catch (RuntimeException ex) {
				// one tick failed (its job rejected, a deadlock): each on its own below
			}
		}
		return advances.stream().map(this::advance).toList();
	}

	private @Nullable Advanced advanceInTransaction(Advance advance) {
		if (!this.dialect.advance(advance.name(), advance.expectedNextRunAt(), advance.expectedQueuedRuns(),
				advance.nextRunAt(), advance.queuedRuns(), advance.tickAt(), advance.outcome(),
				advance.job() != null)) {
			return null;
		}
		if (advance.cancelJobId() != null) {
			this.jobs.cancel(advance.cancelJobId());
		}
		String jobId = null;
		if (advance.job() != null) {
			jobId = this.jobs.insert(List.of(advance.job())).get(0);
			this.dialect.setLastJob(advance.name(), jobId);
		}
		return new Advanced(jobId, this.dialect.runCount(advance.name()));
	}

	@Override
	public StoredSchedule save(String name, Function<@Nullable StoredSchedule, StoredSchedule> change) {
		for (int i = 1;; i++) {
			try {
				return Objects.requireNonNull(this.tx.execute((status) -> {
					StoredSchedule stored = this.dialect.find(name, " FOR UPDATE");
					StoredSchedule changed = change.apply(stored);
					if (stored == null) {
						this.dialect.insert(changed);
					}
					else {
						this.dialect.update(changed);
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
		return this.dialect.delete(name);
	}

}
