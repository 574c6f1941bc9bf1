package dev.ojs.spring.autoconfigure.web;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.ojs.web.OjsPaths;

/**
 * Where the OJS surfaces lie, relative to the context path, read once from the configuration:
 * the one list behind the request guard and the binding's error bodies for unrouted paths.
 */
final class OjsSurfacePaths {

	/** The ids of the starter's actuator endpoints. */
	private static final List<String> ENDPOINTS = List.of("ojs", "deadletters", "recurringjobs");

	private OjsSurfacePaths() {
	}

	/** {@link OjsPaths#ROOT}, and the dashboard's path when it is served. */
	static List<String> surfaces(Environment environment) {
		List<String> surfaces = new ArrayList<>(List.of(OjsPaths.ROOT));
		String dashboard = dashboardPath(environment);
		if (dashboard != null) {
			surfaces.add(dashboard);
		}
		return surfaces;
	}

	/**
	 * The {@link #surfaces}, their fixed sub-paths (whose case a request must keep too), and
	 * the OJS actuator endpoints when they are served on the application's port.
	 */
	static List<String> guarded(Environment environment) {
		List<String> guarded = new ArrayList<>(surfaces(environment));
		guarded.addAll(List.of(OjsPaths.BASE_PATH, OjsPaths.ADMIN_PATH, OjsPaths.MANIFEST_PATH));
		String dashboard = dashboardPath(environment);
		if (dashboard != null) {
			guarded.add(dashboard + "/assets");
			guarded.add(dashboard + "/index.html");
		}
		String managementPort = environment.getProperty("management.server.port");
		if (managementPort == null || managementPort.equals(environment.getProperty("server.port"))) {
			String base = environment.getProperty("management.endpoints.web.base-path", "/actuator");
			for (String endpoint : ENDPOINTS) {
				String mapped = environment.getProperty("management.endpoints.web.path-mapping." + endpoint, endpoint);
				guarded.add((base.endsWith("/") ? base : base + "/") + mapped);
			}
		}
		return guarded;
	}

	private static @Nullable String dashboardPath(Environment environment) {
		Binder binder = Binder.get(environment);
		return binder.bind("ojs.dashboard.enabled", Boolean.class).orElse(false)
				? binder.bindOrCreate("ojs.dashboard", OjsDashboardProperties.class).normalizedPath() : null;
	}

}
