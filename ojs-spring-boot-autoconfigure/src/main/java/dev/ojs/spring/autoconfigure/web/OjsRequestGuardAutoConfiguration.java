package dev.ojs.spring.autoconfigure.web;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.spring.autoconfigure.OjsAutoConfiguration;
import dev.ojs.web.OjsPaths;
import dev.ojs.web.OjsRequestGuard;

/**
 * The {@link OjsRequestGuard} in front of every OJS surface of a servlet application: the
 * HTTP binding and the Admin API under {@code /ojs}, the dashboard's path, and the OJS
 * actuator endpoints on the application's port. It runs first, ahead of Spring Security's
 * filters, so that no filter and no security rule reads a path spelled otherwise than Spring
 * MVC routes it.
 */
@AutoConfiguration(after = OjsAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(JobStore.class)
public final class OjsRequestGuardAutoConfiguration {

	/** Ahead of every other filter of the starter and of Spring Security's ({@code -100}). */
	static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 40;

	/** The ids of the starter's actuator endpoints. */
	private static final List<String> ENDPOINTS = List.of("ojs", "deadletters", "recurringjobs");

	@Bean
	FilterRegistrationBean<OjsRequestGuard> ojsRequestGuard(Environment environment,
			ObjectProvider<JsonMapper> jsonMapper) {
		FilterRegistrationBean<OjsRequestGuard> registration = new FilterRegistrationBean<>(
				new OjsRequestGuard(prefixes(environment), jsonMapper.getIfUnique(JsonMapper::new)));
		registration.setOrder(ORDER);
		return registration;
	}

	/** Where the OJS surfaces lie, relative to the context path. */
	static List<String> prefixes(Environment environment) {
		Binder binder = Binder.get(environment);
		// the root, and the fixed sub-paths below it whose case is checked as well
		List<String> prefixes = new ArrayList<>(
				List.of(OjsPaths.ROOT, OjsPaths.BASE_PATH, OjsPaths.ADMIN_PATH, OjsPaths.MANIFEST_PATH));
		if (binder.bind("ojs.dashboard.enabled", Boolean.class).orElse(false)) {
			String dashboard = binder.bindOrCreate("ojs.dashboard", OjsDashboardProperties.class).normalizedPath();
			prefixes.add(dashboard);
			prefixes.add(dashboard + "/assets");
			prefixes.add(dashboard + "/index.html");
		}
		String managementPort = environment.getProperty("management.server.port");
		if (managementPort == null || managementPort.equals(environment.getProperty("server.port"))) {
			String base = environment.getProperty("management.endpoints.web.base-path", "/actuator");
			for (String endpoint : ENDPOINTS) {
				String mapped = environment.getProperty("management.endpoints.web.path-mapping." + endpoint, endpoint);
				prefixes.add((base.endsWith("/") ? base : base + "/") + mapped);
			}
		}
		return prefixes;
	}

}
