package dev.ojs.spring.autoconfigure.web;


import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.spring.autoconfigure.OjsAutoConfiguration;
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

	@Bean
	FilterRegistrationBean<OjsRequestGuard> ojsRequestGuard(Environment environment,
			ObjectProvider<JsonMapper> jsonMapper) {
		FilterRegistrationBean<OjsRequestGuard> registration = new FilterRegistrationBean<>(
				new OjsRequestGuard(OjsSurfacePaths.guarded(environment), jsonMapper.getIfUnique(JsonMapper::new)));
		registration.setOrder(ORDER);
		return registration;
	}

}
