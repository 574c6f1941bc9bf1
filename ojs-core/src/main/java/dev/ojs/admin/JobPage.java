package dev.ojs.admin;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * One keyset page of jobs and the number matching the filter.
 *
 * @param items the jobs, in the query's order
 * @param total how many jobs match, exact or estimated
 * @param totalIsEstimate whether {@code total} is an estimate (too many to count cheaply)
 * @param next the cursor of the next page, {@code null} on the last
 */
public record JobPage(List<Job> items, long total, boolean totalIsEstimate, @Nullable PageCursor next) {

	public JobPage {
		items = List.copyOf(items);
	}

}
