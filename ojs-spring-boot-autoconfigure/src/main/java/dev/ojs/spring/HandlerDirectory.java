package dev.ojs.spring;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.TypeLimit;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * What this application knows of each job type's handler: its own {@link OjsJob @OjsJob}
 * handler, else the one a worker node published to the job store, else none. It routes a job
 * enqueued without a queue or priority to its handler's, and tells the layers its retry
 * policy is merged from (spec §8.1), wherever the handler runs. Worker nodes publish their
 * handlers at start-up ({@link #publish}); a publication is seen here within
 * {@value #PUBLISHED_TTL_SECONDS} s, a type nobody published is looked up again after a
 * second.
 */
public class HandlerDirectory {

	static final long PUBLISHED_TTL_SECONDS = 30;

	private static final Duration PUBLISHED_TTL = Duration.ofSeconds(PUBLISHED_TTL_SECONDS);

	private static final Duration UNKNOWN_TTL = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(HandlerDirectory.class);

	/**
	 * Where jobs of a type go and how their policy is layered.
	 *
	 * @param queue the handler's queue, else {@value NewJob#DEFAULT_QUEUE}
	 * @param priority the handler's priority, else 0
	 * @param layers the policy layers below the job's own fields
	 * @param source {@code local} (this application's handler), {@code published} (another
	 * node's) or {@code none}
	 * @param policy the layers merged: the policy of a job without fields of its own
	 */
	public record Route(String queue, int priority, RetryPolicyLayers layers, String source, RetryPolicy policy) {

		Route(String queue, int priority, RetryPolicyLayers layers, String source) {
			this(queue, priority, layers, source, layers.effective());
		}

	}

	private record Cached(Route route, long expiresAtNanos) {
	}

	private final OjsJobRegistry registry;

	private final JobStore store;

	private final RetryPolicy applicationPolicy;

	private final @Nullable String application;

	private final Clock clock;

	private final Map<String, Route> local = new ConcurrentHashMap<>();

	private final Map<String, Cached> published = new ConcurrentHashMap<>();

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

	/**
	 * @param registry this application's handlers
	 * @param store where handlers are published
	 * @param applicationPolicy this application's retry defaults ({@code ojs.retry.*}), partial
	 * @param application this application's name, or {@code null}
	 */
	public HandlerDirectory(OjsJobRegistry registry, JobStore store, RetryPolicy applicationPolicy,
			@Nullable String application) {
		this(registry, store, applicationPolicy, application, Clock.systemUTC());
	}

	HandlerDirectory(OjsJobRegistry registry, JobStore store, RetryPolicy applicationPolicy,
			@Nullable String application, Clock clock) {
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.applicationPolicy = Objects.requireNonNull(applicationPolicy, "applicationPolicy must not be null");
		this.application = application;
		this.clock = clock;
	}

	/** Where jobs of {@code type} go, and the layers of their policy. */
	public Route route(String type) {
		Route route = this.local.get(type);
		if (route != null) {
			return route;
		}
		Optional<RegisteredJob> handler = this.registry.find(type);
		if (handler.isPresent()) {
			RegisteredJob job = handler.get();
			route = new Route(job.queue(), job.priority(),
					applicationLayers().over(RetryPolicyLayers.HANDLER, job.handlerPolicy()), "local");
			this.local.put(type, route);
			return route;
		}
		long now = System.nanoTime();
		Cached cached = this.published.get(type);
		if (cached == null || now - cached.expiresAtNanos() > 0) {
			cached = lookUp(type, now);
			this.published.put(type, cached);
		}
		return cached.route();
	}

	/** The layers of {@code job}'s policy: its handler's, then the job's own fields. */
	public RetryPolicyLayers layers(Job job) {
		RetryPolicyLayers layers = route(job.type()).layers();
		// most jobs have no fields of their own: the route's layers, merged once, serve them all
		return job.retryPolicy().isEmpty() ? layers : layers.over(RetryPolicyLayers.JOB, job.retryPolicy());
	}

	/**
	 * Publishes this application's handlers as run by node {@code nodeId}, replacing earlier
	 * publications of the same types, and writes their limits on all nodes
	 * ({@link OjsJob#globalConcurrency()}, {@link OjsJob#globalConcurrencyPerKey()}) where they
	 * differ from the stored ones.
	 */
	public void publish(String nodeId) {
		if (this.registry.jobs().isEmpty()) {
			return;
		}
		List<PublishedHandler> handlers = this.registry.jobs()
			.stream()
			.map((job) -> new PublishedHandler(job.type(), job.queue(), job.priority(), this.applicationPolicy,
					job.handlerPolicy(), this.application, nodeId, this.clock.instant()))
			.toList();
		this.store.publishHandlers(handlers);
		Map<String, TypeLimit> limits = this.store.typeLimits();
		for (RegisteredJob job : this.registry.jobs()) {
			TypeLimit limit = new TypeLimit((job.globalConcurrency() > 0) ? job.globalConcurrency() : null,
					(job.globalConcurrencyPerKey() > 0) ? job.globalConcurrencyPerKey() : null);
			if (!limit.equals(limits.getOrDefault(job.type(), TypeLimit.NONE))) {
				this.store.setTypeLimit(job.type(), limit);
			}
		}
	}

	/** Every handler published to the job store, by type. */
	public List<PublishedHandler> published() {
		return this.store.publishedHandlers();
	}

	private Cached lookUp(String type, long now) {
		Optional<PublishedHandler> handler;
		try {
			handler = this.store.findPublishedHandler(type);
		}
		catch (RuntimeException ex) {
			// e.g. a database that lacks the handlers table: enqueues go on with the defaults
			if (this.unreadable.add(type)) {
				logger.warn("Could not read the published handler of job type '" + type + "'; its jobs go to queue '"
						+ NewJob.DEFAULT_QUEUE + "' unless the enqueue names one: " + ex);
			}
			return new Cached(new Route(NewJob.DEFAULT_QUEUE, 0, applicationLayers(), "none"),
					now + UNKNOWN_TTL.toNanos());
		}
		if (handler.isPresent()) {
			PublishedHandler published = handler.get();
			Route route = new Route(published.queue(), published.priority(),
					RetryPolicyLayers.spec()
						.over(RetryPolicyLayers.APPLICATION, published.applicationPolicy())
						.over(RetryPolicyLayers.HANDLER, published.handlerPolicy()),
					"published");
			return new Cached(route, now + PUBLISHED_TTL.toNanos());
		}
		if (this.warned.add(type)) {
			logger.warn("No worker has published a handler for job type '" + type + "': its jobs go to queue '"
					+ NewJob.DEFAULT_QUEUE + "' with priority 0 unless the enqueue names them, and run with the"
					+ " policy of whichever handler claims them");
		}
		return new Cached(new Route(NewJob.DEFAULT_QUEUE, 0, applicationLayers(), "none"),
				now + UNKNOWN_TTL.toNanos());
	}

	private RetryPolicyLayers applicationLayers() {
		return RetryPolicyLayers.spec().over(RetryPolicyLayers.APPLICATION, this.applicationPolicy);
	}

}
