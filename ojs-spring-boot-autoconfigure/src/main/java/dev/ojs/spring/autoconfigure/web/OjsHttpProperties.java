package dev.ojs.spring.autoconfigure.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.util.Assert;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the OJS HTTP binding ({@code /ojs/v1/**} and {@code /ojs/manifest}),
 * through which producers and workers in any language enqueue and run jobs.
 */
@ConfigurationProperties("ojs.http")
public class OjsHttpProperties {

	/**
	 * Whether to serve the OJS HTTP binding. Off by default: it lets remote clients enqueue
	 * and run jobs.
	 */
	private boolean enabled;

	/**
	 * Bearer token every request must carry ({@code Authorization: Bearer <token>}) when
	 * Spring Security is not in use. Required then, unless loopback clients are allowed
	 * without one. With Spring Security, a request carrying it holds the admin role.
	 */
	private @Nullable String token;

	/**
	 * Whether requests from the loopback interface need no bearer token (without Spring
	 * Security). For local development and sidecars on the same host. Such requests must name
	 * this application in their Host header (an IP address, localhost or one of allowed-hosts),
	 * which a page rebound to this machine by DNS cannot do. A warning is logged at start-up.
	 */
	private boolean allowUnauthenticatedLoopback;

	/**
	 * Further host names (without port) that loopback clients let in without a token may use
	 * in their Host header, besides IP addresses and localhost.
	 */
	private List<String> allowedHosts = new ArrayList<>();

	/** Role (without the {@code ROLE_} prefix) that may enqueue, look up and cancel jobs, with Spring Security. */
	private String producerRole = "OJS_PRODUCER";

	/** Role (without the {@code ROLE_} prefix) that may fetch, heartbeat, ack and nack jobs, with Spring Security. */
	private String workerRole = "OJS_WORKER";

	/**
	 * Role (without the {@code ROLE_} prefix) that may do everything, including the dead
	 * letter endpoints, with Spring Security.
	 */
	private String adminRole = "OJS_ADMIN";

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getToken() {
		return this.token;
	}

	public void setToken(@Nullable String token) {
		this.token = token;
	}

	public boolean isAllowUnauthenticatedLoopback() {
		return this.allowUnauthenticatedLoopback;
	}

	public void setAllowUnauthenticatedLoopback(boolean allowUnauthenticatedLoopback) {
		this.allowUnauthenticatedLoopback = allowUnauthenticatedLoopback;
	}

	public List<String> getAllowedHosts() {
		return this.allowedHosts;
	}

	public void setAllowedHosts(List<String> allowedHosts) {
		this.allowedHosts = allowedHosts;
	}

	public String getProducerRole() {
		return this.producerRole;
	}

	public void setProducerRole(String producerRole) {
		this.producerRole = producerRole;
	}

	public String getWorkerRole() {
		return this.workerRole;
	}

	public void setWorkerRole(String workerRole) {
		this.workerRole = workerRole;
	}

	public String getAdminRole() {
		return this.adminRole;
	}

	public void setAdminRole(String adminRole) {
		this.adminRole = adminRole;
	}

	// ---- request and job size limits

	/**
	 * Most bytes of a request body to the binding. A larger one is answered 413 as it is
	 * read (at once when its Content-Length says so), never held whole. The default, 4MB,
	 * holds a batch of 1,000 small jobs or an ack with a 1MB result.
	 */
	private DataSize maxRequestSize = DataSize.ofMegabytes(4);

	/**
	 * Most bytes of a job's args, as serialized JSON. Read when 'ojs.max-args-size', which
	 * applies to every job enqueued, is not set.
	 */
	private @Nullable DataSize maxArgsSize;

	/**
	 * Most bytes of a job's meta, as serialized JSON. Read when 'ojs.max-meta-size' is not
	 * set.
	 */
	private @Nullable DataSize maxMetaSize;

	public DataSize getMaxRequestSize() {
		return this.maxRequestSize;
	}

	public void setMaxRequestSize(DataSize maxRequestSize) {
		this.maxRequestSize = maxRequestSize;
	}

	@Deprecated
	@DeprecatedConfigurationProperty(replacement = "ojs.max-args-size",
			reason = "The limit applies to every job enqueued, from Java and over HTTP alike")
	public @Nullable DataSize getMaxArgsSize() {
		return this.maxArgsSize;
	}

	@Deprecated
	public void setMaxArgsSize(@Nullable DataSize maxArgsSize) {
		this.maxArgsSize = maxArgsSize;
	}

	@Deprecated
	@DeprecatedConfigurationProperty(replacement = "ojs.max-meta-size",
			reason = "The limit applies to every job enqueued, from Java and over HTTP alike")
	public @Nullable DataSize getMaxMetaSize() {
		return this.maxMetaSize;
	}

	@Deprecated
	public void setMaxMetaSize(@Nullable DataSize maxMetaSize) {
		this.maxMetaSize = maxMetaSize;
	}

	private final Events events = new Events();

	public Events getEvents() {
		return this.events;
	}

	/**
	 * The event stream, {@code GET /ojs/v1/events}.
	 */
	public static class Events {

		/**
		 * Maximum number of clients subscribed at once; beyond it a subscription is refused
		 * with 429 rate_limited.
		 */
		private int maxSubscribers = 100;

		/**
		 * Maximum number of events waiting for one subscriber; a subscriber that falls this
		 * far behind is dropped.
		 */
		private int bufferSize = 1000;

		/**
		 * How often each subscriber gets a comment line, so that streams of clients that
		 * went away end.
		 */
		private Duration keepAlive = Duration.ofSeconds(15);

		public int getMaxSubscribers() {
			return this.maxSubscribers;
		}

		public void setMaxSubscribers(int maxSubscribers) {
			Assert.isTrue(maxSubscribers >= 1,
					() -> "ojs.http.events.max-subscribers must be at least 1, not " + maxSubscribers);
			this.maxSubscribers = maxSubscribers;
		}

		public int getBufferSize() {
			return this.bufferSize;
		}

		public void setBufferSize(int bufferSize) {
			Assert.isTrue(bufferSize >= 1, () -> "ojs.http.events.buffer-size must be at least 1, not " + bufferSize);
			this.bufferSize = bufferSize;
		}

		public Duration getKeepAlive() {
			return this.keepAlive;
		}

		public void setKeepAlive(Duration keepAlive) {
			Assert.isTrue(!keepAlive.isNegative() && !keepAlive.isZero(),
					() -> "ojs.http.events.keep-alive must be positive, not " + keepAlive);
			this.keepAlive = keepAlive;
		}

		/**
		 * How many of its last events each node keeps for GET /ojs/v1/events asked for JSON;
		 * 0 keeps none.
		 */
		private int recentSize = 1000;

		public int getRecentSize() {
			return this.recentSize;
		}

		public void setRecentSize(int recentSize) {
			Assert.isTrue(recentSize >= 0, () -> "ojs.http.events.recent-size must not be negative, not " + recentSize);
			this.recentSize = recentSize;
		}

	}

}
