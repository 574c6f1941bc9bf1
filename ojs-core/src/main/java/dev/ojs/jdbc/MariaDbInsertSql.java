package dev.ojs.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * Job inserts on MariaDB and MySQL: a row with a unique key is inserted with
 * {@code ON DUPLICATE KEY UPDATE id = id}, which turns a clash on
 * {@code (type, live_unique_key)} into a no-op (ids are fresh UUIDv7s, so the primary key
 * never clashes).
 */
final class MariaDbInsertSql extends InsertSql {

	MariaDbInsertSql(SqlSupport shared) {
		super(shared, null);
	}

	/**
	 * The live holder is read back with a locking read ({@code LOCK IN SHARE MODE}, which
	 * MariaDB and MySQL 8 both accept): a plain read in a REPEATABLE READ transaction (the
	 * InnoDB default) would see the transaction's snapshot, which misses a holder committed
	 * since.
	 */
	@Override
	@Nullable String insertUnique(InsertRow row) {
		this.jdbc.update(insertSql(row) + " ON DUPLICATE KEY UPDATE id = id", (ps) -> bind(ps, 1, row));
		return findLiveIdByUniqueKey(row.type(), row.uniqueKey(), " LOCK IN SHARE MODE");
	}

}
