package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobIds;

/** A conjunction of conditions on a table (most often the job table) and their bound values, in order. */
final class WhereClause {

	private final SqlSupport sql;

	private final List<String> conditions = new ArrayList<>();

	/** The values bound, in order; a statement adds those of its own clauses after them. */
	final List<Object> params = new ArrayList<>();

	WhereClause(SqlSupport sql) {
		this.sql = sql;
	}

	/** Adds {@code condition} with its one value when the value is given. */
	void and(String condition, @Nullable Object value) {
		if (value != null) {
			add(condition, value);
		}
	}

	void add(String condition, Object... values) {
		this.conditions.add(condition);
		this.params.addAll(Arrays.asList(values));
	}

	/** Jobs created at or after {@code since}: also a primary-key range, from its millisecond's first id. */
	void createdFrom(@Nullable Instant since) {
		if (since != null) {
			add("created_at >= ?", since);
			add("id >= " + this.sql.idParam(), JobIds.first(since));
		}
	}

	/**
	 * Jobs created before {@code until}: also a primary-key range, up to the next
	 * millisecond's first id. Ids made by versions before ids carried {@code created_at}
	 * could be a few milliseconds later than it: such jobs created within those
	 * milliseconds before {@code until} are left out.
	 */
	void createdBefore(@Nullable Instant until) {
		if (until != null) {
			add("created_at < ?", until);
			add("id < " + this.sql.idParam(), JobIds.firstAfter(until));
		}
	}

	void in(String column, List<String> values) {
		add(column + " IN (" + SqlSupport.markers(values.size()) + ")", values.toArray());
	}

	/** The conditions joined by {@code AND}; {@code 1 = 1} when there are none. */
	String conditions() {
		return this.conditions.isEmpty() ? "1 = 1" : String.join(" AND ", this.conditions);
	}

	/** {@code " WHERE "} and the conditions; nothing when there are none. */
	String sql() {
		return this.conditions.isEmpty() ? "" : " WHERE " + conditions();
	}

	void bind(PreparedStatement ps) throws SQLException {
		this.sql.bindValues(ps, 1, this.params);
	}

}
