package dev.ojs.web.admin;

import org.jspecify.annotations.Nullable;

/**
 * How the Admin API behaves, from {@code ojs.dashboard.*}.
 *
 * @param readOnly whether every write is refused
 * @param showArgs whether job args and meta leave the server
 * @param dashboardPath where the dashboard UI is served
 * @param bulkLimit most jobs one bulk operation acts on
 * @param adminRole the role that may write when Spring Security protects the API
 * @param version the starter's version, if known
 */
public record AdminApiSettings(boolean readOnly, boolean showArgs, String dashboardPath, int bulkLimit,
		String adminRole, @Nullable String version) {

	/** Where the Admin API is served, relative to the context path. */
	public static final String API_PATH = "/ojs/v1/admin";

}
