package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.springframework.jdbc.core.RowCallbackHandler;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;

/**
 * The SQL of the error history, the append-only table {@code <prefix>job_errors}: one row per
 * failed attempt's error, a JSON object each ({@link ErrorHistoryJson}), kept while its job
 * exists. PostgreSQL's one-statement writes take its parts for their {@code WITH} queries.
 */
final class ErrorSql extends SqlSupport {

	private final String errors;

	ErrorSql(SqlSupport shared) {
		super(shared);
		this.errors = shared.settings.errorsTableName();
	}

	/** The rows of these jobs' error histories by job id, oldest first: one JSON object each. */
	Map<String, List<String>> rows(List<String> ids) {
		Map<String, List<String>> rows = new HashMap<>();
		for (List<String> chunk : chunks(ids, CHUNK)) {
			this.jdbc.query("SELECT job_id, error FROM " + this.errors + " WHERE job_id IN (" + idMarkers(chunk.size())
					+ ") ORDER BY seq", (ps) -> bindValues(ps, 1, chunk),
					(RowCallbackHandler) (rs) -> rows.computeIfAbsent(rs.getString(1), (id) -> new ArrayList<>())
						.add(rs.getString(2)));
		}
		return rows;
	}

	/**
	 * Appends each failure's error to its job's history, and drops the entries of attempts
	 * before those the history keeps (spec §10.1 limit).
	 */
	void append(List<AttemptFailure> failures) {
		List<AttemptFailure> appended = failures.stream().filter((failure) -> failure.error() != null).toList();
		if (!appended.isEmpty()) {
			this.jdbc.batchUpdate("INSERT INTO " + this.errors + " (job_id, attempt, error) VALUES (" + idParam()
					+ ", ?, ?)", appended, CHUNK, (ps, failure) -> {
						ErrorEntry error = Objects.requireNonNull(failure.error());
						ps.setString(1, failure.job().id());
						ps.setInt(2, error.attempt());
						ps.setString(3, ErrorHistoryJson.writeEntry(error));
					});
		}
		List<AttemptFailure> trimmed = failures.stream().filter((failure) -> failure.oldestAttemptKept() > 1).toList();
		if (!trimmed.isEmpty()) {
			this.jdbc.batchUpdate("DELETE FROM " + this.errors + " WHERE job_id = " + idParam() + " AND attempt < ?",
					trimmed, CHUNK, (ps, failure) -> {
						ps.setString(1, failure.job().id());
						ps.setInt(2, failure.oldestAttemptKept());
					});
		}
	}

	/** Deletes the history of those of the jobs {@code ids} that no longer exist. */
	void deleteOfDeleted(List<String> ids) {
		this.jdbc.update("DELETE FROM " + this.errors + " WHERE job_id IN (" + idMarkers(ids.size())
				+ ") AND NOT EXISTS (SELECT 1 FROM " + this.table + " j WHERE j.id = " + this.errors + ".job_id)",
				(ps) -> bindValues(ps, 1, ids));
	}

	// ---- parts of PostgreSQL's WITH queries

	/** Deletes the history of the jobs in the {@code id} column of the query named {@code deleted}. */
	String deleteOf(String deleted) {
		return "DELETE FROM " + this.errors + " x USING " + deleted + " WHERE x.job_id = " + deleted + ".id";
	}

	/**
	 * Appends the errors of the query named {@code failed} (columns {@code id},
	 * {@code error_attempt}, {@code error}; none where {@code error} is null).
	 */
	String appendFrom(String failed) {
		return "INSERT INTO " + this.errors + " (job_id, attempt, error) SELECT id, error_attempt, error FROM " + failed
				+ " WHERE error IS NOT NULL";
	}

	/**
	 * Drops the entries before the first attempt each job of the query named {@code failed}
	 * keeps (its column {@code keep_from}, 1 to keep all).
	 */
	String trimFrom(String failed) {
		return "DELETE FROM " + this.errors + " x USING " + failed + " WHERE " + failed + ".keep_from > 1 AND x.job_id = "
				+ failed + ".id AND x.attempt < " + failed + ".keep_from";
	}

}
