package dev.ojs.spring;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockStatic;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * Tests for {@link JobOptions}.
 */
class JobOptionsTests {

	private static final String RETRY_JSON = "{\"max_attempts\": 5, \"on_exhaustion\": \"dead_letter\"}";

	private final JobStore store = mock(JobStore.class);

	private final List<NewJob> inserted = new ArrayList<>();

	private final OjsTemplate template = new OjsTemplate(this.store, mock(OjsJobRegistry.class), RetryPolicy.DEFAULT,
			new JsonMapper());

	JobOptionsTests() {
		given(this.store.insert(anyList())).willAnswer((invocation) -> {
			List<NewJob> jobs = invocation.getArgument(0);
			this.inserted.addAll(jobs);
			return jobs.stream().map(NewJob::type).toList();
		});
	}

	@Test
	void retryJsonIsParsedOnceHoweverManyEnqueuesUseTheOptions() {
		JobOptions options = JobOptions.builder().retry(RETRY_JSON).build();
		try (MockedStatic<RetryPolicy> policies = mockStatic(RetryPolicy.class, CALLS_REAL_METHODS)) {
			for (int i = 0; i < 100; i++) {
				this.template.enqueue("t", List.of(i), options);
			}
			this.template.enqueueAll("t", List.of(List.of("a"), List.of("b")), options);
			policies.verify(() -> RetryPolicy.parsePartial(RETRY_JSON), times(1));
		}
		assertThat(options.partialRetry()).isSameAs(options.partialRetry());
		// only the job's own fields are stored: its handler supplies the rest (spec §8.1)
		RetryPolicy expected = RetryPolicy.parsePartial(RETRY_JSON);
		assertThat(this.inserted).hasSize(102).allSatisfy((job) -> {
			assertThat(job.retryPolicy()).isEqualTo(expected);
			assertThat(job.retryPolicy().onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
		});
	}

	@Test
	void invalidRetryJsonFailsAtEveryEnqueueNotAtBuild() {
		String json = "{\"backoff_coefficient\": 0.5}";
		RetryPolicyValidationException parsed = catchThrowableOfType(RetryPolicyValidationException.class,
				() -> RetryPolicy.parsePartial(json));
		JobOptions options = JobOptions.builder().retry(json).build();
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(RetryPolicyValidationException.class)
				.isThrownBy(() -> this.template.enqueue("t", List.of("x"), options))
				.withMessage(parsed.getMessage())
				.satisfies((ex) -> assertThat(ex.field()).isEqualTo("backoff_coefficient"));
		}
		JobOptions notJson = JobOptions.builder().retry("{not json").build();
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueueAll("t", List.of(List.of("a")), notJson));
		verify(this.store, never()).insert(any());
	}

	@Test
	void aRetryPolicyIsUsedAsGiven() {
		RetryPolicy policy = RetryPolicy.builder().maxAttempts(7).build();
		assertThat(JobOptions.builder().retry(policy).build().partialRetry()).isSameAs(policy);
		assertThat(JobOptions.builder().retry(RETRY_JSON).retry(policy).build().partialRetry()).isSameAs(policy);
		assertThat(JobOptions.none().partialRetry()).isNull();
	}

}
