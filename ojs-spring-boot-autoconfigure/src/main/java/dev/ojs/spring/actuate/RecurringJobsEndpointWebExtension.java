package dev.ojs.spring.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link RecurringJobsEndpoint}:
 * answers its write operation with {@code 404} when there is no recurring job of that name (a
 * write that returns nothing would otherwise be a {@code 204}).
 */
@EndpointWebExtension(endpoint = RecurringJobsEndpoint.class)
public class RecurringJobsEndpointWebExtension {

	private final RecurringJobsEndpoint delegate;

	/**
	 * Creates the extension.
	 * @param delegate the endpoint it extends
	 */
	public RecurringJobsEndpointWebExtension(RecurringJobsEndpoint delegate) {
		this.delegate = delegate;
	}

	/**
	 * See {@link RecurringJobsEndpoint#operate(String, String)}.
	 * @param name the recurring job
	 * @param action {@code pause}, {@code resume} or {@code trigger}
	 * @return {@code 200} with the recurring job or the job enqueued, or {@code 404}
	 */
	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> operate(@Selector String name, String action) {
		OperationResponseBody body = this.delegate.operate(name, action);
		return (body != null) ? new WebEndpointResponse<>(body)
				: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
