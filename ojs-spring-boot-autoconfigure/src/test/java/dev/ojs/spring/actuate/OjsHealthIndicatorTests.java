package dev.ojs.spring.actuate;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsJobs;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link OjsHealthIndicator}.
 */
class OjsHealthIndicatorTests {

	private final JobStore store = mock(JobStore.class);

	@Test
	void upAfterOnlyTheCheapAvailabilityProbe() {
		Health health = new OjsHealthIndicator(new OjsJobs(this.store, null, null)).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).isEmpty();
		then(this.store).should().checkAvailable();
		then(this.store).shouldHaveNoMoreInteractions();
	}

	@Test
	void downWithTheErrorWhenTheTableCannotBeRead() {
		willThrow(new DataAccessResourceFailureException("Table \"OJS_JOBS\" not found")).given(this.store)
			.checkAvailable();
		Health health = new OjsHealthIndicator(new OjsJobs(this.store, null, null)).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails().get("error")).asString().contains("OJS_JOBS");
	}

}
