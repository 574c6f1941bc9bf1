package dev.ojs.spring;

import org.junit.jupiter.api.Test;

import dev.ojs.admin.JobQuery;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.Mockito.mock;

/**
 * The bulk operations' state rule (ojs-admin-api.md §8), the service's for every edge (issue
 * 27): a filter cannot sweep jobs the action does not apply to.
 */
class OjsJobsBulkTests {

	private final OjsJobs jobs = new OjsJobs(mock(JobStore.class), null, null);

	@Test
	void eachActionNeedsAStateItAppliesTo() {
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.jobs.bulk(OjsJobs.BulkAction.RETRY, JobQuery.ALL, false, 10))
			.withMessage("Bulk retry needs filter.state discarded, cancelled or dead_letter");
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.jobs.bulk(OjsJobs.BulkAction.CANCEL,
					JobQuery.ALL.withState(JobState.COMPLETED, null), false, 10))
			.withMessage("Bulk cancel needs filter.state scheduled, available, active or retryable");
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.jobs.bulk(OjsJobs.BulkAction.DELETE,
					JobQuery.ALL.withState(JobState.AVAILABLE, null), false, 10))
			.withMessage("Bulk delete needs filter.state completed, discarded, cancelled or dead_letter");
		// a fitting state passes the rule, and reaches the store's queries
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> this.jobs
			.bulk(OjsJobs.BulkAction.DELETE, JobQuery.ALL.withState(JobState.COMPLETED, null), false, 10));
	}

}
