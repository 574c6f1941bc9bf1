package dev.ojs.retry;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JobError}: the §7.3 error format and the error type of an exception.
 */
class JobErrorTest {

	@Test
	void codeDefaultsToRetryAndDetailsToEmpty() {
		JobError error = new JobError("external.timeout", null, null, null);
		assertThat(error.code()).isEqualTo(ErrorCode.RETRY);
		assertThat(error.message()).isEmpty();
		assertThat(error.details()).isEmpty();
	}

	@Test
	void detailsKeepNullValuesAndTheirOrderAndCannotBeChanged() {
		java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
		details.put("card", null);
		details.put("attempts", 3);
		JobError error = new JobError("payment.card_stolen", "stolen", ErrorCode.DEAD_LETTER, details);
		details.put("late", "x");
		assertThat(error.details()).containsExactly(org.assertj.core.api.Assertions.entry("card", null), org.assertj.core.api.Assertions.entry("attempts", 3))
			.isUnmodifiable();
		assertThat(error.code()).isEqualTo(ErrorCode.DEAD_LETTER);
	}

	@Test
	void typeIsRequired() {
		assertThatIllegalArgumentException().isThrownBy(() -> JobError.of(" ", "blank"));
	}

	@Test
	void exceptionTypeIsItsDotNamespacedClassName() {
		assertThat(JobError.of(new IOException("disk"))).isEqualTo(JobError.of("java.io.IOException", "disk"));
		assertThat(JobError.typeOf(Outer.Inner.class)).isEqualTo("dev.ojs.retry.JobErrorTest.Outer.Inner");
	}

	@Test
	void nestedExceptionMatchesItsOuterClassPrefix() {
		RetryPolicy policy = RetryPolicy.parse("{\"non_retryable_errors\": [\"dev.ojs.retry.JobErrorTest.Outer.*\"]}");
		assertThat(policy.isNonRetryable(JobError.of(new Outer.Inner()).type())).isTrue();
	}

	static final class Outer {

		static final class Inner extends RuntimeException {

		}

	}

}
