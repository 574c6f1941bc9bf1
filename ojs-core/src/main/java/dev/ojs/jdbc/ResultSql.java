package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The SQL of job results (spec README decision 28), the table {@code <prefix>job_results}:
 * one JSON document per completed job that returned one, keyed by the job's id and kept
 * while its job exists, apart from the job row so that plain jobs pay nothing for them.
 */
final class ResultSql extends SqlSupport {

	private final String results;

	ResultSql(SqlSupport shared) {
		super(shared);
		this.results = shared.settings.resultsTableName();
	}

	/** The result of a job, or empty when it has none. */
	Optional<String> find(String id) {
		List<String> found = this.jdbc.query("SELECT result FROM " + this.results + " WHERE job_id = " + idParam(),
				(rs, rowNum) -> rs.getString(1), id);
		return found.stream().findFirst();
	}

	/** The JSON array of the results of a workflow's steps in step order, {@code null} for a step without one. */
	String ofSteps(String workflowId) {
		List<String> results = this.jdbc.query("SELECT r.result FROM " + this.table + " j LEFT JOIN " + this.results
				+ " r ON r.job_id = j.id WHERE j.workflow_id = " + idParam()
				+ " AND j.workflow_role = 'step' ORDER BY j.workflow_step", (rs, rowNum) -> {
					String result = rs.getString(1);
					return (result != null) ? result : "null";
				}, workflowId);
		return "[" + String.join(",", results) + "]";
	}

	/** The parent results of a chain's next step: this step's, with its result appended. */
	static String appended(@Nullable String parentResults, @Nullable String result) {
		String element = (result != null) ? result : "null";
		String parents = (parentResults != null) ? parentResults.strip() : "[]";
		String inner = parents.substring(1, parents.length() - 1).strip();
		return "[" + (inner.isEmpty() ? "" : inner + ",") + element + "]";
	}

	/** Stores the results of these jobs (by id), replacing any they had. */
	void write(Map<String, String> results) {
		if (results.isEmpty()) {
			return;
		}
		List<Map.Entry<String, String>> entries = new ArrayList<>(results.entrySet());
		for (List<Map.Entry<String, String>> chunk : chunks(entries, CHUNK)) {
			deleteOf(chunk.stream().map(Map.Entry::getKey).toList());
		}
		this.jdbc.batchUpdate("INSERT INTO " + this.results + " (job_id, result) VALUES (" + idParam() + ", ?)", entries,
				CHUNK, (ps, entry) -> {
					ps.setString(1, entry.getKey());
					ps.setString(2, entry.getValue());
				});
	}

	/** Deletes the results of these jobs. */
	void deleteOf(Collection<String> ids) {
		this.jdbc.update("DELETE FROM " + this.results + " WHERE job_id IN (" + idMarkers(ids.size()) + ")",
				(ps) -> bindValues(ps, 1, new ArrayList<>(ids)));
	}

	/** Deletes the results of those of the jobs {@code ids} that no longer exist. */
	void deleteOfDeleted(List<String> ids) {
		this.jdbc.update("DELETE FROM " + this.results + " WHERE job_id IN (" + idMarkers(ids.size())
				+ ") AND NOT EXISTS (SELECT 1 FROM " + this.table + " j WHERE j.id = " + this.results + ".job_id)",
				(ps) -> bindValues(ps, 1, ids));
	}

	/** PostgreSQL: deletes the results of the jobs in the {@code id} column of the query named {@code deleted}. */
	String deleteOf(String deleted) {
		return "DELETE FROM " + this.results + " x USING " + deleted + " WHERE x.job_id = " + deleted + ".id";
	}

}
