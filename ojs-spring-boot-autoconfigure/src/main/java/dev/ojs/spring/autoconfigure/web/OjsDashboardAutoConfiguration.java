package dev.ojs.spring.autoconfigure.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.admin.AdminStore;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.JobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.spring.OjsStatistics;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsTypeLimits;
import dev.ojs.spring.OjsWorker;
import dev.ojs.spring.OjsWorkerNodes;
import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.BearerToken;
import dev.ojs.web.OjsAccessFilter;
import dev.ojs.web.OjsPaths;
import dev.ojs.web.RequestSizeFilter;
import dev.ojs.web.admin.AdminApiSettings;
import dev.ojs.web.admin.AdminDeadLetterController;
import dev.ojs.web.admin.AdminJobsController;
import dev.ojs.web.admin.AdminLimitsController;
import dev.ojs.web.admin.AdminQueuesController;
import dev.ojs.web.admin.AdminSystemController;
import dev.ojs.web.admin.AdminRecurringJobsController;
import dev.ojs.web.admin.AdminWorkflowsController;
import dev.ojs.web.admin.AdminWriteGuard;
import dev.ojs.web.admin.CsrfTokens;
import dev.ojs.web.dashboard.OjsDashboardController;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the OJS Admin API under
 * {@code /ojs/v1/admin} on the application's own servlet container, off unless
 * {@code ojs.dashboard.enabled=true}. Writes are refused while {@code ojs.dashboard.read-only}
 * (the default) is on, and cross-origin writes always ({@link dev.ojs.web.OjsRequestGuard});
 * with Spring Security, {@link OjsDashboardSecurityConfiguration} requires the viewer role for
 * reads and the admin role and a CSRF token for writes; without, a bearer token guards the API.
 */
@AutoConfiguration(afterName = { "dev.ojs.spring.autoconfigure.OjsAutoConfiguration",
		"dev.ojs.spring.autoconfigure.OjsWorkerAutoConfiguration",
				"dev.ojs.spring.autoconfigure.OjsRecurringJobsAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty("ojs.dashboard.enabled")
@ConditionalOnBean({ JdbcJobStore.class, OjsTemplate.class, OjsJobs.class, OjsQueues.class })
@EnableConfigurationProperties(OjsDashboardProperties.class)
@Import({ OjsDashboardSecurityConfiguration.class, OjsWebErrorsConfiguration.class })
public final class OjsDashboardAutoConfiguration {

	@Bean
	AdminApiSettings ojsAdminApiSettings(OjsDashboardProperties properties) {
		String version = OjsDashboardAutoConfiguration.class.getPackage().getImplementationVersion();
		if (properties.getBulkLimit() < 1) {
			throw new IllegalArgumentException("ojs.dashboard.bulk-limit must be at least 1");
		}
		return new AdminApiSettings(properties.isReadOnly(), properties.isShowArgs(), properties.normalizedPath(),
				properties.getBulkLimit(), properties.getAdminRole(), version);
	}

	@Bean
	AdminJobsController ojsAdminJobsController(OjsTemplate template, OjsJobs jobs,
			ObjectProvider<JsonMapper> jsonMapper, AdminApiSettings settings) {
		return new AdminJobsController(template, jobs, jsonMapper(jsonMapper), settings);
	}

	@Bean
	AdminQueuesController ojsAdminQueuesController(OjsQueues queues, ObjectProvider<OjsWorker> worker) {
		return new AdminQueuesController(queues, worker);
	}

	@Bean
	AdminLimitsController ojsAdminLimitsController(OjsTypeLimits limits) {
		return new AdminLimitsController(limits);
	}

	@Bean
	AdminDeadLetterController ojsAdminDeadLetterController(OjsDeadLetters deadLetters,
			ObjectProvider<JsonMapper> jsonMapper, AdminApiSettings settings) {
		return new AdminDeadLetterController(deadLetters, jsonMapper(jsonMapper), settings);
	}

	@Bean
	AdminSystemController ojsAdminSystemController(OjsStatistics statistics, OjsWorkerNodes nodes,
			AdminApiSettings settings, ObjectProvider<JsonMapper> jsonMapper, ObjectProvider<OjsWorker> worker,
			ObjectProvider<CsrfTokens> csrf) {
		return new AdminSystemController(statistics, nodes, settings, jsonMapper(jsonMapper), worker, csrf);
	}

	private static JsonMapper jsonMapper(ObjectProvider<JsonMapper> jsonMapper) {
		return jsonMapper.getIfUnique(JsonMapper::new);
	}

	/** The dashboard page and its assets at {@code ojs.dashboard.path}. */
	@Bean
	RouterFunction<ServerResponse> ojsDashboardRoutes(OjsDashboardProperties properties) {
		return new OjsDashboardController(properties.normalizedPath()).routes();
	}

	/**
	 * Bounds the Admin API's request bodies while they are read
	 * ({@code ojs.dashboard.max-request-size}), and those to the dashboard's path outside the
	 * binding's.
	 */
	@Bean
	FilterRegistrationBean<RequestSizeFilter> ojsAdminRequestSizeFilter(OjsDashboardProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) {
		String dashboard = properties.normalizedPath();
		FilterRegistrationBean<RequestSizeFilter> registration = new FilterRegistrationBean<>(
				new RequestSizeFilter(properties.getMaxRequestSize().toBytes(),
						(path) -> OjsPaths.isAdmin(path) || (!dashboard.equals("/") && OjsPaths.isUnder(path, dashboard)
								&& !OjsPaths.isUnder(path, OjsPaths.BASE_PATH) && !path.equals(OjsPaths.MANIFEST_PATH)),
						jsonMapper(jsonMapper)));
		registration.setOrder(OjsHttpAutoConfiguration.REQUEST_SIZE_FILTER_ORDER);
		return registration;
	}

	@Bean
	WebMvcConfigurer ojsAdminWriteGuardConfigurer(OjsDashboardProperties properties) {
		AdminWriteGuard guard = new AdminWriteGuard(properties.isReadOnly());
		return new WebMvcConfigurer() {
			@Override
			public void addInterceptors(InterceptorRegistry registry) {
				// only before an Admin API controller: an unknown path stays a 404 (or 405)
				registry.addInterceptor(new HandlerInterceptor() {
					@Override
					public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
							throws Exception {
						return !(handler instanceof HandlerMethod) || guard.preHandle(request, response, handler);
					}
				}).addPathPatterns(AdminApiSettings.API_PATH + "/**");
			}
		};
	}

	/**
	 * Without Spring Security in use: the Admin API needs {@code ojs.dashboard.token} (or
	 * {@code ojs.http.token}) as a bearer token, or loopback clients are let in when allowed
	 * explicitly. The dashboard's page and assets hold no data and stay open: the page asks
	 * for the token.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(type = "org.springframework.security.config.annotation.web.builders.HttpSecurity")
	static class TokenConfiguration {

		@Bean
		FilterRegistrationBean<OjsAccessFilter> ojsAdminAccessFilter(OjsDashboardProperties properties,
				Environment environment, ObjectProvider<JsonMapper> jsonMapper) {
			BearerToken token = BearerToken.of(properties.getToken());
			return AccessFilters.registration(
					new AccessFilters.Surface("The OJS Admin API (ojs.dashboard.enabled=true)", OjsPaths::isAdmin,
							"ojs.dashboard.token (or ojs.http.token)", "ojs.dashboard.allow-unauthenticated-loopback",
							"read every job and, unless read-only, change them"),
					(token != null) ? token : BearerToken.of(environment.getProperty("ojs.http.token")),
					properties.isAllowUnauthenticatedLoopback(), properties.getAllowedHosts(), jsonMapper(jsonMapper));
		}

	}

	/** Recurring jobs, when recurring jobs are on. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(OjsRecurringJobs.class)
	static class RecurringJobsConfiguration {

		@Bean
		AdminRecurringJobsController ojsAdminRecurringJobsController(OjsRecurringJobs recurringJobs) {
			return new AdminRecurringJobsController(recurringJobs);
		}

	}

	/** Workflows, when the store keeps them. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(OjsWorkflows.class)
	static class WorkflowsConfiguration {

		@Bean
		AdminWorkflowsController ojsAdminWorkflowsController(OjsWorkflows workflows,
				ObjectProvider<JsonMapper> jsonMapper) {
			return new AdminWorkflowsController(workflows, jsonMapper(jsonMapper));
		}

	}

}
