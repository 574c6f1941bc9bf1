package dev.ojs.worker;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;
import dev.ojs.job.PublishedHandler;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;

/**
 * The retry policy a job runs with on this node (spec §8.1): the job's own fields over its
 * handler's policy (spec defaults &lt; the application's {@code ojs.retry.*} &lt;
 * {@code @OjsJob}). For a job whose handler this node lacks (another node's expired
 * reservation), the handler another node published, else this application's defaults.
 */
final class RetryPolicies {

	private static final Log logger = LogFactory.getLog(RetryPolicies.class);

	private final Map<String, HandlerRegistration> registrations;

	private final RetryPolicy applicationDefaults;

	private final Function<String, Optional<PublishedHandler>> published;

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	/**
	 * @param registrations this node's handlers by type
	 * @param applicationDefaults this application's default policy (effective)
	 * @param published the published handler of a type
	 */
	RetryPolicies(Map<String, HandlerRegistration> registrations, RetryPolicy applicationDefaults,
			Function<String, Optional<PublishedHandler>> published) {
		this.registrations = registrations;
		this.applicationDefaults = applicationDefaults;
		this.published = published;
	}

	/** The effective policy of {@code job}. */
	RetryPolicy of(Job job) {
		HandlerRegistration registration = this.registrations.get(job.type());
		RetryPolicy base = (registration != null) ? registration.retryPolicy()
				: this.published.apply(job.type())
					.map((handler) -> handler.layers(RetryPolicy.builder().build()).effective())
					.orElse(this.applicationDefaults);
		return over(job.retryPolicy(), base, () -> {
			if (this.warned.add(job.type())) {
				logger.warn("OJS: the retry policy fields of " + job.type() + " jobs (" + job.retryPolicy().toJson()
						+ ") do not fit their handler's policy " + base.toJson()
						+ "; such jobs run with their own fields over the spec defaults");
			}
		});
	}

	/**
	 * A job's own fields over its handler's policy; when they clash with it (they were valid
	 * over the spec defaults at enqueue, RET-16), its own fields over the spec defaults.
	 */
	static RetryPolicy over(RetryPolicy own, RetryPolicy base, Runnable onClash) {
		if (own.isEmpty()) {
			return base;
		}
		try {
			return own.mergedOver(base).effective();
		}
		catch (RetryPolicyValidationException ex) {
			onClash.run();
			return own.effective();
		}
	}

}
