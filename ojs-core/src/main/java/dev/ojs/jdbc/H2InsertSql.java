package dev.ojs.jdbc;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;

/**
 * Job inserts on H2: a row with a unique key is inserted after looking up the live holder.
 */
final class H2InsertSql extends InsertSql {

	H2InsertSql(SqlSupport shared) {
		super(shared, null);
	}

	/**
	 * Look up the live holder, else insert; a concurrent insert of the same key makes the
	 * unique index reject ours (H2 rolls back only that statement), and the caller retries.
	 * H2 reads never see a holder committed after a REPEATABLE READ transaction's snapshot
	 * (not even {@code FOR UPDATE}), so there the retries end in a concurrency failure.
	 */
	@Override
	@Nullable String insertUnique(InsertRow row) {
		String existing = findLiveIdByUniqueKey(row.type(), row.uniqueKey());
		if (existing != null) {
			return existing;
		}
		try {
			this.jdbc.update(insertSql(row), (ps) -> bind(ps, 1, row));
			return row.id();
		}
		catch (DuplicateKeyException ex) {
			return null;
		}
	}

}
