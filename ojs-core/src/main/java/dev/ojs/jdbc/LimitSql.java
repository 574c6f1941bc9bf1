package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.TypeLimit;

/**
 * The SQL of the limits table {@code <prefix>limits}: a row per limited job type, named
 * {@code type:<job type>}, with the type's concurrency limit on all nodes together and its
 * limit per concurrency key; and what a claim of limited types needs: their rows locked, their
 * active jobs counted (per key too), and jobs claimed beyond a limit handed back.
 */
final class LimitSql extends SqlSupport {

	/** The name prefix of a job type's row. */
	static final String TYPE = "type:";

	private final String limits;

	/** A claim's transaction holding the rows of its limited types: the queue limit's if under way, else new. */
	private final TransactionTemplate claimTx;

	LimitSql(SqlSupport shared) {
		super(shared);
		this.limits = shared.settings.limitsTableName();
		this.claimTx = transaction(TransactionDefinition.PROPAGATION_REQUIRED,
				TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/** Sets or (with {@link TypeLimit#NONE}) removes a type's limits, creating its row when it has none. */
	void setTypeLimit(String type, TypeLimit limit) {
		// active_max: claims while the type had no limit were not added to it, so its next claim counts
		String update = "UPDATE " + this.limits + " SET concurrency = ?, concurrency_per_key = ?, active_max = NULL"
				+ " WHERE name = ?";
		Object[] values = { limit.concurrency(), limit.concurrencyPerKey(), TYPE + type };
		int[] types = { Types.INTEGER, Types.INTEGER, Types.VARCHAR };
		if (this.jdbc.update(update, values, types) > 0) {
			return;
		}
		try {
			this.jdbc.update("INSERT INTO " + this.limits + " (concurrency, concurrency_per_key, name) VALUES (?, ?, ?)",
					values, types);
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			this.jdbc.update(update, values, types);
		}
	}

	/** The limits of every limited job type, by type. */
	Map<String, TypeLimit> typeLimits() {
		Map<String, TypeLimit> limits = new LinkedHashMap<>();
		this.jdbc.query("SELECT name, concurrency, concurrency_per_key FROM " + this.limits + " WHERE name LIKE '" + TYPE
				+ "%' AND (concurrency IS NOT NULL OR concurrency_per_key IS NOT NULL) ORDER BY name", (rs) -> {
					limits.put(rs.getString(1).substring(TYPE.length()), typeLimit(rs));
				});
		return limits;
	}

	private static TypeLimit typeLimit(ResultSet rs) throws SQLException {
		int concurrency = rs.getInt(2);
		Integer limit = rs.wasNull() ? null : concurrency;
		int perKey = rs.getInt(3);
		return new TypeLimit(limit, rs.wasNull() ? null : perKey);
	}

	/** Runs a claim of limited types in the transaction that holds their rows ({@link #lockTypes}). */
	List<Job> inClaimTransaction(TransactionCallback<List<Job>> claim) {
		List<Job> jobs = this.claimTx.execute(claim);
		return (jobs != null) ? jobs : List.of();
	}

	/**
	 * A limited type's limits as stored, and the most jobs of it that can be active (the last
	 * count plus the jobs claimed since; {@code null} until a claim counts them).
	 */
	record Locked(TypeLimit limit, @Nullable Integer activeMax) {
	}

	/**
	 * Locks the rows of these types until {@link #inClaimTransaction}'s transaction ends, in
	 * name order (so claims never wait on each other in a cycle), and reads their limits; a
	 * type whose limit was removed is left out.
	 */
	Map<String, Locked> lockTypes(Collection<String> types) {
		List<String> names = types.stream().map((type) -> TYPE + type).sorted().toList();
		Map<String, Locked> limits = new LinkedHashMap<>();
		this.jdbc.query("SELECT name, concurrency, concurrency_per_key, active_max FROM " + this.limits
				+ " WHERE name IN (" + markers(names.size()) + ") ORDER BY name FOR UPDATE", (rs) -> {
					TypeLimit limit = typeLimit(rs);
					int activeMax = rs.getInt(4);
					Integer bound = rs.wasNull() ? null : activeMax;
					if (!limit.isNone()) {
						limits.put(rs.getString(1).substring(TYPE.length()), new Locked(limit, bound));
					}
				}, names.toArray());
		return limits;
	}

	/** Stores the most jobs of each of these locked types that can now be active. */
	void setActiveMax(Map<String, Integer> activeMaxByType) {
		List<Object[]> rows = activeMaxByType.entrySet().stream()
			.sorted(Map.Entry.comparingByKey())
			.map((entry) -> new Object[] { entry.getValue(), TYPE + entry.getKey() })
			.toList();
		this.jdbc.batchUpdate("UPDATE " + this.limits + " SET active_max = ? WHERE name = ?", rows,
				new int[] { Types.INTEGER, Types.VARCHAR });
	}

	/** The active jobs of {@code type} with a concurrency key (on every node), by key. */
	Map<String, Integer> countActiveByKey(String type) {
		Map<String, Integer> counts = new HashMap<>();
		this.jdbc.query("SELECT concurrency_key, count(*) FROM " + this.table + " WHERE state = 'active' AND type = ?"
				+ " AND concurrency_key IS NOT NULL GROUP BY concurrency_key", (rs) -> {
					counts.put(rs.getString(1), rs.getInt(2));
				}, type);
		return counts;
	}

	/** The concurrency keys of these jobs, by id; a job without one is left out. */
	Map<String, String> keysOf(List<Job> jobs) {
		Map<String, String> keys = new HashMap<>();
		this.jdbc.query("SELECT id, concurrency_key FROM " + this.table + " WHERE concurrency_key IS NOT NULL AND id IN ("
				+ String.join(", ", Collections.nCopies(jobs.size(), idParam())) + ")", (rs) -> {
					keys.put(rs.getString(1), rs.getString(2));
				}, jobs.stream().map(Job::id).toArray());
		return keys;
	}

	/** The active jobs of each of these types (on every node), by type; a type without any is left out. */
	Map<String, Integer> countActive(Collection<String> types) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		this.jdbc.query("SELECT type, count(*) FROM " + this.table + " WHERE state = 'active' AND type IN ("
				+ markers(types.size()) + ") GROUP BY type", (rs) -> {
					counts.put(rs.getString(1), rs.getInt(2));
				}, types.toArray());
		return counts;
	}

	/**
	 * Hands jobs just claimed in this transaction back, as if never claimed: {@code available},
	 * the attempt not consumed.
	 */
	void unclaim(List<Job> jobs) {
		this.jdbc.update("UPDATE " + this.table + " SET state = 'available', attempt = attempt - 1, locked_by = NULL,"
				+ " locked_until = NULL, started_at = NULL WHERE id IN ("
				+ String.join(", ", Collections.nCopies(jobs.size(), idParam())) + ")",
				jobs.stream().map(Job::id).toArray());
	}

}
