package dev.ojs.spring.autoconfigure.web;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the OJS Admin API ({@code /ojs/v1/admin}) and dashboard.
 */
@ConfigurationProperties("ojs.dashboard")
public class OjsDashboardProperties {

	/**
	 * Whether to serve the Admin API and the dashboard on the application's own port and
	 * context path.
	 */
	private boolean enabled;

	/**
	 * Path of the dashboard UI, relative to the context path. The Admin API is served at
	 * /ojs/v1/admin whatever this is.
	 */
	private String path = "/ojs";

	/**
	 * Whether every write (pause, retry, cancel, delete, purge, trigger) is refused with 403.
	 */
	private boolean readOnly = true;

	/**
	 * Bearer token every Admin API request must carry when Spring Security is not in use; the
	 * dashboard asks for it once per browser tab. Defaults to ojs.http.token. Without either,
	 * start-up fails unless loopback clients are allowed without one.
	 */
	private @Nullable String token;

	/**
	 * Whether Admin API requests from the loopback interface need no token (without Spring
	 * Security), for local development. Such requests must name this application in their Host
	 * header (an IP address, localhost or one of allowed-hosts). A warning is logged at
	 * start-up.
	 */
	private boolean allowUnauthenticatedLoopback;

	/**
	 * Further host names (without port) that loopback clients let in without a token may use
	 * in their Host header, besides IP addresses and localhost.
	 */
	private List<String> allowedHosts = new ArrayList<>();

	/**
	 * Role (without the ROLE_ prefix) that may read the Admin API and the dashboard, when
	 * Spring Security is in use.
	 */
	private String viewerRole = "OJS_VIEWER";

	/**
	 * Role (without the ROLE_ prefix) that may read and write, when Spring Security is in use.
	 */
	private String adminRole = "OJS_ADMIN";

	/**
	 * Whether job args and meta are shown; when false they never leave the server (they may
	 * hold personal data).
	 */
	private boolean showArgs = true;

	/**
	 * Most jobs one bulk retry, cancel or delete acts on; the answer tells when more matched
	 * ("truncated") so that the caller repeats.
	 */
	private int bulkLimit = 10_000;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getPath() {
		return this.path;
	}

	public void setPath(String path) {
		this.path = path;
	}

	public boolean isReadOnly() {
		return this.readOnly;
	}

	public void setReadOnly(boolean readOnly) {
		this.readOnly = readOnly;
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

	public String getViewerRole() {
		return this.viewerRole;
	}

	public void setViewerRole(String viewerRole) {
		this.viewerRole = viewerRole;
	}

	public String getAdminRole() {
		return this.adminRole;
	}

	public void setAdminRole(String adminRole) {
		this.adminRole = adminRole;
	}

	public boolean isShowArgs() {
		return this.showArgs;
	}

	public void setShowArgs(boolean showArgs) {
		this.showArgs = showArgs;
	}

	public int getBulkLimit() {
		return this.bulkLimit;
	}

	public void setBulkLimit(int bulkLimit) {
		this.bulkLimit = bulkLimit;
	}

	/** The dashboard path with a leading and without a trailing slash. */
	String normalizedPath() {
		String trimmed = this.path.strip();
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return trimmed.startsWith("/") ? trimmed : "/" + trimmed;
	}

	// ---- request size limit

	/**
	 * Most bytes of a request body to the Admin API (and the dashboard's path). A larger one
	 * is answered 413 as it is read, never held whole. Its bodies are small filters and
	 * settings: 1MB leaves room.
	 */
	private DataSize maxRequestSize = DataSize.ofMegabytes(1);

	public DataSize getMaxRequestSize() {
		return this.maxRequestSize;
	}

	public void setMaxRequestSize(DataSize maxRequestSize) {
		this.maxRequestSize = maxRequestSize;
	}

}
