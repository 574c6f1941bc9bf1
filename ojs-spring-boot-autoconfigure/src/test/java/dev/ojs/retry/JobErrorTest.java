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
