package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;

/**
 * Guarded per-row writes to claimed jobs as JDBC batches, for the platforms without array
 * parameters (MariaDB, MySQL, H2): each row's statement is guarded by the job's id, its
 * attempt number, state {@code active} and the reservation owner, and the update counts tell
 * which rows the guard let through.
 */
final class GuardedBatch extends SqlSupport {

	private static final Log logger = LogFactory.getLog(GuardedBatch.class);

	/** Nothing more to write in a guarded batch's transaction. */
	static final Consumer<Set<String>> NOTHING_MORE = (written) -> {
	};

	/**
	 * A transaction of its own, or a savepoint in the caller's (the rescuer's, which holds the
	 * rows locked); the connection's isolation (the writes only lock and write).
	 */
	private final TransactionTemplate batchTx;

	/** Set once the driver reported {@link Statement#SUCCESS_NO_INFO} for a guarded batch. */
	private volatile boolean lockBeforeBatch;

	GuardedBatch(SqlSupport shared) {
		super(shared);
		this.batchTx = transaction(TransactionDefinition.PROPAGATION_NESTED, TransactionDefinition.ISOLATION_DEFAULT);
	}

	/** Binds one item's row of a batch. */
	@FunctionalInterface
	interface RowBinder<T> {

		void bind(PreparedStatement ps, T item) throws SQLException;

	}

	/**
	 * Runs a guarded per-row statement for every item as JDBC batches in one transaction, or
	 * under a savepoint of the caller's (so a failed batch writes nothing and can be retried
	 * row by row), in id order (one lock order for every writer); returns the ids the guard
	 * let through, read from the update counts. A driver that reports
	 * {@link Statement#SUCCESS_NO_INFO} instead (MariaDB with {@code useBulkStmts=true})
	 * cannot tell a written row from one the guard rejected: the batch is rolled back (to the
	 * savepoint), and from then on every guarded batch first locks its rows with
	 * {@code SELECT ... FOR UPDATE}, checks the guard on what it read, and writes only the
	 * rows that pass. {@code alsoWrite} gets the ids written, in the same transaction (the
	 * error history of the rows a failure wrote, or of those a completion deleted).
	 */
	<T> Set<String> write(List<T> items, Function<T, Job> jobOf, String sql, @Nullable Instant expiredBefore,
			RowBinder<T> binder, Consumer<Set<String>> alsoWrite) {
		List<T> sorted = new ArrayList<>(items);
		sorted.sort(Comparator.comparing((T item) -> jobOf.apply(item).id()));
		if (!this.lockBeforeBatch) {
			Set<String> written = this.batchTx.execute((status) -> {
				Set<String> ids = new HashSet<>();
				for (List<T> chunk : chunks(sorted, CHUNK)) {
					int[] counts = executeBatch(sql, chunk, binder);
					for (int i = 0; i < chunk.size(); i++) {
						if (counts[i] == Statement.SUCCESS_NO_INFO) {
							status.setRollbackOnly();
							return null;
						}
						if (counts[i] > 0) {
							ids.add(jobOf.apply(chunk.get(i)).id());
						}
					}
				}
				alsoWrite.accept(ids);
				return ids;
			});
			if (written != null) {
				return written;
			}
			this.lockBeforeBatch = true;
			logger.info("OJS: the JDBC driver reports no per-row update counts (e.g. MariaDB useBulkStmts=true);"
					+ " guarded writes now lock and check their rows first");
		}
		return this.batchTx.execute((status) -> {
			Set<String> ids = new HashSet<>();
			for (List<T> chunk : chunks(sorted, CHUNK)) {
				Set<String> held = new HashSet<>();
				held(chunk.stream().map(jobOf).toList(), expiredBefore, true).forEach((job) -> held.add(job.id()));
				List<T> writable = chunk.stream().filter((item) -> held.contains(jobOf.apply(item).id())).toList();
				if (!writable.isEmpty()) {
					executeBatch(sql, writable, binder);
				}
				ids.addAll(held);
			}
			alsoWrite.accept(ids);
			return ids;
		});
	}

	private <T> int[] executeBatch(String sql, List<T> chunk, RowBinder<T> binder) {
		return this.jdbc.batchUpdate(sql, new BatchPreparedStatementSetter() {

			@Override
			public void setValues(PreparedStatement ps, int i) throws SQLException {
				binder.bind(ps, chunk.get(i));
			}

			@Override
			public int getBatchSize() {
				return chunk.size();
			}

		});
	}

	/**
	 * Those of {@code jobs} whose row passes the write guard (active, same attempt and owner,
	 * and with {@code expiredBefore} a reservation expired before it), locked with
	 * {@code FOR UPDATE} when {@code lock}.
	 */
	List<Job> held(List<Job> jobs, @Nullable Instant expiredBefore, boolean lock) {
		Map<String, List<Job>> byId = new HashMap<>();
		jobs.forEach((job) -> byId.computeIfAbsent(job.id(), (id) -> new ArrayList<>()).add(job));
		List<Job> held = new ArrayList<>();
		this.jdbc.query("SELECT id, attempt, locked_by, locked_until FROM " + this.table + " WHERE id IN ("
				+ idMarkers(byId.size()) + ") AND state = 'active' ORDER BY id"
				+ (lock ? " FOR UPDATE" : ""), (ps) -> {
					int index = 1;
					for (String id : byId.keySet()) {
						ps.setString(index++, id);
					}
				}, (rs) -> {
					int attempt = rs.getInt(2);
					String owner = rs.getString(3);
					Instant lockedUntil = getInstant(rs, 4);
					for (Job job : byId.getOrDefault(rs.getString(1).toLowerCase(Locale.ROOT), List.of())) {
						if (job.attempt() == attempt && Objects.equals(owner, job.lockedBy()) && (expiredBefore == null
								|| (lockedUntil != null && lockedUntil.isBefore(expiredBefore)))) {
							held.add(job);
						}
					}
				});
		return held;
	}

}
