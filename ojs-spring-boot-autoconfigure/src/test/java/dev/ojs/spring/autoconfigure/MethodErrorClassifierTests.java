package dev.ojs.spring.autoconfigure;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;

import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.retry.RetryDecision;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.JobErrorClassifier;
import dev.ojs.spring.OjsError;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobException;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MethodErrorClassifier} and {@link ExceptionCodes}.
 */
class MethodErrorClassifierTests {

	@Test
	void plainExceptionIsItsClassNameWithRetry() {
		JobError error = classify("plain", new IllegalStateException("boom"));
		assertThat(error).isEqualTo(new JobError("java.lang.IllegalStateException", "boom", ErrorCode.RETRY, Map.of()));
	}

	@Test
	void exceptionWithoutMessageUsesTheClassName() {
		assertThat(classify("plain", new IllegalStateException()).message()).isEqualTo("java.lang.IllegalStateException");
	}

	@Test
	void nestedExceptionClassNameIsJoinedByDotsSoPrefixPatternsMatch() {
		JobError error = classify("plain", new Outer.Inner());
		assertThat(error.type()).isEqualTo("dev.ojs.spring.autoconfigure.MethodErrorClassifierTests.Outer.Inner");
		assertThat(error.message()).isEqualTo(error.type());
		assertThat(error.details()).isEmpty();
		RetryPolicy policy = RetryPolicy.builder()
			.nonRetryableErrors("dev.ojs.spring.autoconfigure.MethodErrorClassifierTests.Outer.*")
			.build()
			.effective();
		assertThat(policy.isNonRetryable(error.type())).isTrue();
		assertThat(policy.decide(1, error, new Random(0)).rule()).isEqualTo(RetryDecision.Rule.NON_RETRYABLE);
	}

	@Test
	void ojsJobExceptionWithANullDetailKeepsItsCode() {
		java.util.Map<String, Object> details = new java.util.HashMap<>();
		details.put("card", null);
		JobError error = classify("lists",
				new OjsJobException("payment.card_stolen", ErrorCode.DEAD_LETTER, "stolen", details));
		assertThat(error.type()).isEqualTo("payment.card_stolen");
		assertThat(error.code()).isEqualTo(ErrorCode.DEAD_LETTER);
		assertThat(error.details()).containsEntry("card", null);
	}

	@Test
	void ojsJobExceptionIsRecordedAsGiven() {
		for (ErrorCode code : ErrorCode.values()) {
			JobError error = classify("lists",
					new OjsJobException("external.stripe.card_declined", code, "declined", Map.of("card", "4242")));
			assertThat(error).isEqualTo(
					new JobError("external.stripe.card_declined", "declined", code, Map.of("card", "4242")));
		}
	}

	@Test
	void ojsErrorAnnotationSetsTypeAndCode() {
		JobError error = classify("plain", new CardDeclined("no funds"));
		assertThat(error.type()).isEqualTo("payments.card_declined");
		assertThat(error.code()).isEqualTo(ErrorCode.DISCARD);
		assertThat(error.details()).containsEntry("exception", CardDeclined.class.getName());
	}

	@Test
	void ojsErrorAnnotationIsInherited() {
		JobError error = classify("plain", new StolenCard());
		assertThat(error.type()).isEqualTo("payments.card_declined");
		assertThat(error.code()).isEqualTo(ErrorCode.DISCARD);
	}

	@Test
	void ojsErrorWithoutTypeKeepsTheClassName() {
		JobError error = classify("plain", new Poisoned());
		assertThat(error.type()).isEqualTo("dev.ojs.spring.autoconfigure.MethodErrorClassifierTests.Poisoned");
		assertThat(error.code()).isEqualTo(ErrorCode.DEAD_LETTER);
		assertThat(error.details()).isEmpty();
	}

	@Test
	void listsMatchSubclassesAndTheClosestListedClassWins() {
		// discardOn IOException, deadLetterOn SocketException, retryOn ConnectException,
		// failOn IllegalArgumentException
		assertThat(classify("lists", new IOException()).code()).isEqualTo(ErrorCode.DISCARD);
		assertThat(classify("lists", new FileNotFoundException()).code()).isEqualTo(ErrorCode.DISCARD);
		assertThat(classify("lists", new SocketException()).code()).isEqualTo(ErrorCode.DEAD_LETTER);
		assertThat(classify("lists", new ConnectException()).code()).isEqualTo(ErrorCode.RETRY);
		assertThat(classify("lists", new NumberFormatException()).code()).isEqualTo(ErrorCode.FAIL);
		assertThat(classify("lists", new UncheckedIOException(new IOException())).code()).isEqualTo(ErrorCode.RETRY);
		assertThat(classify("lists", new ConnectException()).type()).isEqualTo("java.net.ConnectException");
	}

	@Test
	void methodListsWinOverOjsErrorCodeButKeepItsType() {
		JobError error = classify("retryDeclined", new CardDeclined("later"));
		assertThat(error.code()).isEqualTo(ErrorCode.RETRY);
		assertThat(error.type()).isEqualTo("payments.card_declined");
	}

	@Test
	void ojsJobExceptionWinsOverMethodLists() {
		JobError error = classify("lists", new OjsJobException("x.y", ErrorCode.FAIL, "m"));
		assertThat(error.code()).isEqualTo(ErrorCode.FAIL);
	}

	@Test
	void proxyWrapperIsUnwrappedButTheHandlersOwnExceptionKeepsItsType() {
		IOException cause = new IOException("disk");
		// a proxy wraps an undeclared checked exception: classified as the exception itself
		JobError unwrapped = classify("lists", new UndeclaredThrowableException(cause));
		assertThat(unwrapped.type()).isEqualTo("java.io.IOException");
		assertThat(unwrapped.code()).isEqualTo(ErrorCode.DISCARD);
		// MethodJobHandler already unwrapped the reflective call: an InvocationTargetException
		// reaching the classifier was thrown by the handler's own code
		assertThat(classify("lists", new InvocationTargetException(cause)).type())
			.isEqualTo("java.lang.reflect.InvocationTargetException");
	}

	@Test
	void argumentBindingFailureIsArgsInvalidWithFail() {
		JobError error = classify("plain", new ArgumentBindingException("argument 0 cannot be bound", 0, null));
		assertThat(error.type()).isEqualTo("ojs.args_invalid");
		assertThat(error.code()).isEqualTo(ErrorCode.FAIL);
		assertThat(error.message()).contains("argument 0");
	}

	@Test
	void globalClassifiersOverrideInOrderAndEmptyKeepsTheDefault() {
		JobErrorClassifier keep = (job, failure, classified) -> Optional.empty();
		JobErrorClassifier timeouts = (job, failure, classified) -> (failure instanceof java.util.concurrent.TimeoutException)
				? Optional.of(new JobError("net.timeout", classified.message(), ErrorCode.RETRY, Map.of("attempt", job.attempt())))
				: Optional.empty();
		JobErrorClassifier never = (job, failure, classified) -> Optional.of(JobError.of("never", "never"));
		JobErrorClassifier broken = (job, failure, classified) -> {
			throw new IllegalStateException("broken classifier");
		};
		MethodErrorClassifier classifier = new MethodErrorClassifier(ExceptionCodes.NONE,
				() -> List.of(broken, keep, timeouts, never));
		JobError error = classifier.classify(StoredJobs.job("t").attempt(2).build(),
				new java.util.concurrent.TimeoutException("slow"));
		assertThat(error).isEqualTo(new JobError("net.timeout", "slow", ErrorCode.RETRY, Map.of("attempt", 2)));
		MethodErrorClassifier keeping = new MethodErrorClassifier(ExceptionCodes.NONE, () -> List.of(keep));
		assertThat(keeping.classify(StoredJobs.job("t").build(), new IOException("x")).type())
			.isEqualTo("java.io.IOException");
	}

	@Test
	void classListedTwiceIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> ExceptionCodes.of(annotation("conflict")))
			.withMessageContaining("'retryOn' lists java.io.IOException, which 'discardOn' also lists");
	}

	private JobError classify(String method, Throwable failure) {
		MethodErrorClassifier classifier = new MethodErrorClassifier(ExceptionCodes.of(annotation(method)), List::of);
		return classifier.classify(StoredJobs.job("t").build(), failure);
	}

	private static OjsJob annotation(String method) {
		return AnnotationUtils.findAnnotation(ReflectionUtils.findMethod(Handlers.class, method), OjsJob.class);
	}

	@OjsError(type = "payments.card_declined", code = ErrorCode.DISCARD)
	static class CardDeclined extends RuntimeException {

		CardDeclined(String message) {
			super(message);
		}

	}

	static class StolenCard extends CardDeclined {

		StolenCard() {
			super("stolen");
		}

	}

	@OjsError(code = ErrorCode.DEAD_LETTER)
	static class Poisoned extends RuntimeException {

	}

	static final class Outer {

		static class Inner extends RuntimeException {

		}

	}

	@SuppressWarnings("unused")
	static class Handlers {

		@OjsJob(type = "plain")
		void plain() {
		}

		@OjsJob(type = "lists", discardOn = IOException.class, deadLetterOn = SocketException.class,
				retryOn = { ConnectException.class, UncheckedIOException.class }, failOn = IllegalArgumentException.class)
		void lists() {
		}

		@OjsJob(type = "retry.declined", retryOn = CardDeclined.class)
		void retryDeclined() {
		}

		@OjsJob(type = "conflict", discardOn = IOException.class, retryOn = IOException.class)
		void conflict() {
		}

	}

}
