package dev.ojs.jdbc;

import java.util.List;

/**
 * Deletes on PostgreSQL: the jobs and the error history and results of those deleted in one statement
 * ({@code DELETE ... RETURNING} in a {@code WITH} query).
 */
final class PostgresDeleteSql extends DeleteSql {

	PostgresDeleteSql(SqlSupport shared, ErrorSql errors, ResultSql results) {
		super(shared, errors, results);
	}

	@Override
	int deleteMatching(String where, List<?> values, String order, int limit) {
		Integer deleted = this.jdbc.query("WITH d AS (DELETE FROM " + this.table + " WHERE id IN (SELECT id FROM "
				+ this.table + " WHERE " + where + " ORDER BY " + order + " LIMIT ?) RETURNING id), e AS ("
				+ this.errors.deleteOf("d") + "), r AS (" + this.results.deleteOf("d") + ") SELECT count(*) FROM d",
				(ps) -> ps.setInt(bindValues(ps, 1, values), limit), (rs) -> rs.next() ? rs.getInt(1) : 0);
		return (deleted != null) ? deleted : 0;
	}

}
