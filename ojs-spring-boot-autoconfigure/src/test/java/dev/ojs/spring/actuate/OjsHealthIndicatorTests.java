package dev.ojs.spring.actuate;

import java.util.Map;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link OjsHealthIndicator}.
 */
class OjsHealthIndicatorTests {

	private final JobStore store = mock(JobStore.class);

	@Test
	void upWithTheNumberOfJobsInEachState() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("a", Map.of(JobState.AVAILABLE, 2L),
				"b", Map.of(JobState.AVAILABLE, 1L, JobState.DISCARDED, 4L)));
		Health health = new OjsHealthIndicator(this.store).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails().get("jobs")).isEqualTo(Map.of("scheduled", 0L, "available", 3L, "active", 0L,
				"completed", 0L, "retryable", 0L, "discarded", 4L, "cancelled", 0L));
	}

	@Test
	void downWithTheErrorWhenTheTableCannotBeRead() {
		willThrow(new DataAccessResourceFailureException("Table \"OJS_JOBS\" not found")).given(this.store)
			.checkAvailable();
		Health health = new OjsHealthIndicator(this.store).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails().get("error")).asString().contains("OJS_JOBS");
	}

}
