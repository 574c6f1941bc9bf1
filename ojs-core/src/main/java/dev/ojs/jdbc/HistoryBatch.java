package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The error rows of the jobs one query read ({@link JobRows#lazily()}), read for all of them
 * in one statement when the first of their histories is used; none when none is. Two threads
 * using the first ones at once may both read them, with the same result, as
 * {@link dev.ojs.job.LazyErrorHistory} allows.
 */
final class HistoryBatch {

	private final ErrorSql errors;

	private final List<String> ids = new ArrayList<>();

	private volatile @Nullable Map<String, List<String>> rows;

	HistoryBatch(ErrorSql errors) {
		this.errors = errors;
	}

	/** Adds a job as the query maps its row, before any history of the batch is used. */
	void add(String id) {
		this.ids.add(id);
	}

	/** The error rows of job {@code id}, one added, oldest first. */
	List<String> rows(String id) {
		Map<String, List<String>> read = this.rows;
		if (read == null) {
			read = this.errors.rows(this.ids);
			this.rows = read;
		}
		return read.getOrDefault(id, List.of());
	}

}
