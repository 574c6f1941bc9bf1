package dev.ojs.spring.actuate;

import java.time.Instant;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.spring.actuate.DeadLettersEndpoint.RetriedDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link DeadLettersEndpoint}:
 * answers its write and delete operations with HTTP statuses: {@code 404} when no dead
 * letter has the id, {@code 204} after a delete, and {@code 400} with an explanation when
 * a bulk retry is not confirmed.
 */
@EndpointWebExtension(endpoint = DeadLettersEndpoint.class)
public class DeadLettersEndpointWebExtension {

	private final DeadLettersEndpoint delegate;

	/**
	 * Creates the extension.
	 * @param delegate the endpoint it extends
	 */
	public DeadLettersEndpointWebExtension(DeadLettersEndpoint delegate) {
		this.delegate = delegate;
	}

	/**
	 * See {@link DeadLettersEndpoint#retryDeadLetter(String)}.
	 * @param id the job id
	 * @return {@code 200} with the outcome, or {@code 404}
	 */
	@WriteOperation
	public WebEndpointResponse<RetriedDescriptor> retryDeadLetter(@Selector String id) {
		RetriedDescriptor retried = this.delegate.retryDeadLetter(id);
		return (retried != null) ? new WebEndpointResponse<>(retried)
				: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
	}

	/**
	 * See {@link DeadLettersEndpoint#retryDeadLetters}.
	 * @param queue exact queue, or {@code null} for all
	 * @param type exact job type, or {@code null} for all
	 * @param errorType exact type of the latest error, or {@code null} for all
	 * @param from dead-lettered at or after, or {@code null}
	 * @param to dead-lettered before, or {@code null}
	 * @param confirm must be {@code true}
	 * @return {@code 200} with the number retried, or {@code 400} saying that
	 * {@code confirm=true} is required
	 */
	@WriteOperation
	public WebEndpointResponse<Object> retryDeadLetters(@Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable Instant from, @Nullable Instant to, @Nullable Boolean confirm) {
		if (!Boolean.TRUE.equals(confirm)) {
			DeadLetterFilter filter = DeadLettersEndpoint.filter(queue, type, errorType, from, to);
			return new WebEndpointResponse<>(this.delegate.confirmationRequired(filter),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		return new WebEndpointResponse<>(this.delegate.retryDeadLetters(queue, type, errorType, from, to, confirm));
	}

	/**
	 * See {@link DeadLettersEndpoint#deleteDeadLetter(String)}.
	 * @param id the job id
	 * @return {@code 204}, or {@code 404}
	 */
	@DeleteOperation
	public WebEndpointResponse<Void> deleteDeadLetter(@Selector String id) {
		return new WebEndpointResponse<>(this.delegate.deleteDeadLetter(id) ? WebEndpointResponse.STATUS_NO_CONTENT
				: WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
