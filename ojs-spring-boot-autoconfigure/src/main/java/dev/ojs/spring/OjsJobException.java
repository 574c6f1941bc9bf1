package dev.ojs.spring;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;

/**
 * Thrown by an {@link OjsJob @OjsJob} handler to fail the attempt with an explicit OJS error
 * (spec §7.3): its type, response code, message and details are recorded as given, and the
 * code takes precedence over the retry policy (spec §7.2).
 */
public class OjsJobException extends RuntimeException {

	private final String type;

	private final ErrorCode code;

	private final Map<String, @Nullable Object> details;

	/**
	 * @param type dot-namespaced error type, e.g. {@code "external.stripe.card_declined"}
	 * @param code the response code; {@code null} means {@link ErrorCode#RETRY}
	 * @param message human-readable description
	 * @param details structured data for debugging; may be {@code null}
	 */
	public OjsJobException(String type, @Nullable ErrorCode code, String message, @Nullable Map<String, ?> details) {
		this(type, code, message, details, null);
	}

	/**
	 * @param type dot-namespaced error type
	 * @param code the response code; {@code null} means {@link ErrorCode#RETRY}
	 * @param message human-readable description
	 * @param details structured data for debugging; may be {@code null}
	 * @param cause the underlying failure, if any
	 */
	public OjsJobException(String type, @Nullable ErrorCode code, String message, @Nullable Map<String, ?> details,
			@Nullable Throwable cause) {
		super(message, cause);
		Objects.requireNonNull(type, "type must not be null");
		if (type.isBlank()) {
			throw new IllegalArgumentException("type must not be blank");
		}
		this.type = type;
		this.code = (code != null) ? code : ErrorCode.RETRY;
		this.details = JobError.copyOfDetails(details);
	}

	/** @see #OjsJobException(String, ErrorCode, String, Map) */
	public OjsJobException(String type, @Nullable ErrorCode code, String message) {
		this(type, code, message, null, null);
	}

	/** A failure that is retried per the policy (code {@link ErrorCode#RETRY}). */
	public static OjsJobException retry(String type, String message) {
		return new OjsJobException(type, ErrorCode.RETRY, message);
	}

	/** Discards the job now, no dead letter (code {@link ErrorCode#DISCARD}). */
	public static OjsJobException discard(String type, String message) {
		return new OjsJobException(type, ErrorCode.DISCARD, message);
	}

	/** Moves the job to the dead letter queue now (code {@link ErrorCode#DEAD_LETTER}). */
	public static OjsJobException deadLetter(String type, String message) {
		return new OjsJobException(type, ErrorCode.DEAD_LETTER, message);
	}

	/** A recognised permanent failure (code {@link ErrorCode#FAIL}). */
	public static OjsJobException fail(String type, String message) {
		return new OjsJobException(type, ErrorCode.FAIL, message);
	}

	public String getType() {
		return this.type;
	}

	public ErrorCode getCode() {
		return this.code;
	}

	public Map<String, @Nullable Object> getDetails() {
		return this.details;
	}

	/** This exception as the spec's error response (§7.3). */
	public JobError toJobError() {
		return new JobError(this.type, getMessage(), this.code, this.details);
	}

}
