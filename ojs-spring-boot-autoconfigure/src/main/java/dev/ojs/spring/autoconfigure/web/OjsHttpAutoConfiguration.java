package dev.ojs.spring.autoconfigure.web;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
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
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.JobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsExternalWorkers;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.spring.OjsWorkerNodes;
import dev.ojs.spring.autoconfigure.OjsAutoConfiguration;
import dev.ojs.spring.autoconfigure.OjsRecurringJobsAutoConfiguration;
import dev.ojs.spring.autoconfigure.OjsProperties;
import dev.ojs.spring.autoconfigure.OjsWorkerAutoConfiguration;
import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.BearerToken;
import dev.ojs.web.OjsAccessFilter;
import dev.ojs.web.OjsPaths;
import dev.ojs.web.RequestSizeFilter;
import dev.ojs.web.http.Manifest;
import dev.ojs.web.http.OjsEventStream;
import dev.ojs.web.http.OjsEventsController;
import dev.ojs.web.http.OjsRecurringJobsController;
import dev.ojs.web.http.OjsDeadLetterController;
import dev.ojs.web.http.OjsHttpFilter;
import dev.ojs.web.http.OjsJobsController;
import dev.ojs.web.http.OjsWorkflowsController;
import dev.ojs.web.http.OjsQueuesController;
import dev.ojs.web.http.OjsSystemController;
import dev.ojs.web.http.OjsWorkersController;
import dev.ojs.web.http.WorkerDirectives;
import dev.ojs.worker.Worker;

/**
 * The OJS HTTP binding, when {@code ojs.http.enabled=true} in a servlet web application:
 * jobs, health and manifest over the application's job store, and the worker endpoints on
 * the node's {@link Worker} (so they need {@code ojs.worker.enabled}, the default). With
 * Spring Security, {@link OjsHttpSecurityConfiguration} guards it by role; without, an
 * {@link OjsAccessFilter} with a bearer token ({@code ojs.http.token}).
 */
@AutoConfiguration(after = { OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class,
		OjsRecurringJobsAutoConfiguration.class }, afterName =
				{ "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty("ojs.http.enabled")
@ConditionalOnBean({ JobStore.class, OjsTemplate.class, OjsJobs.class, OjsQueues.class })
@EnableConfigurationProperties(OjsHttpProperties.class)
@Import({ OjsHttpSecurityConfiguration.class, OjsWebErrorsConfiguration.class })
public final class OjsHttpAutoConfiguration {

	/** Runs early, so even refusals carry the binding's headers. */
	static final int PROTOCOL_FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 50;

	/** After the protocol and token filters, before Spring Security and anything that reads a body. */
	static final int REQUEST_SIZE_FILTER_ORDER = PROTOCOL_FILTER_ORDER + 2;

	@Bean
	OjsJobsController ojsHttpJobsController(OjsTemplate template, OjsJobs jobs, OjsQueues queues, JobStore store,
			ObjectProvider<JsonMapper> jsonMapper, HandlerDirectory handlers) {
		// a request's rate limits are set in the transaction of its jobs' insert
		TransactionOperations transactions = (store instanceof JdbcJobStore jdbc)
				? new TransactionTemplate(new DataSourceTransactionManager(jdbc.dataSource()))
				: TransactionOperations.withoutTransaction();
		return new OjsJobsController(template, jobs, queues, jsonMapper(jsonMapper), handlers, transactions);
	}

	@Bean
	@ConditionalOnBean(OjsWorkflows.class)
	OjsWorkflowsController ojsHttpWorkflowsController(OjsWorkflows workflows, HandlerDirectory handlers,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new OjsWorkflowsController(workflows, handlers, jsonMapper(jsonMapper));
	}

	@Bean
	OjsSystemController ojsHttpSystemController(JobStore store, OjsJobs jobs,
			ObjectProvider<OjsRecurringJobs> recurringJobs) {
		String backend = (store instanceof JdbcJobStore jdbc) ? jdbc.platform().name().toLowerCase(java.util.Locale.ROOT)
				: store.getClass().getSimpleName();
		String version = OjsTemplate.class.getPackage().getImplementationVersion();
		return new OjsSystemController(jobs, backend, new Manifest((version != null) ? version : "development",
				recurringJobs.getIfAvailable() != null));
	}

	@Bean
	OjsEventStream ojsHttpEventStream(Environment environment, OjsHttpProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) {
		OjsHttpProperties.Events events = properties.getEvents();
		return new OjsEventStream(environment.getProperty("spring.application.name", "application"),
				jsonMapper(jsonMapper), events.getMaxSubscribers(), events.getBufferSize(), events.getKeepAlive(),
				events.getRecentSize());
	}

	@Bean
	OjsEventsController ojsHttpEventsController(OjsEventStream stream, ObjectProvider<JsonMapper> jsonMapper) {
		return new OjsEventsController(stream, jsonMapper(jsonMapper));
	}

	@Bean
	OjsQueuesController ojsHttpQueuesController(OjsQueues queues) {
		return new OjsQueuesController(queues);
	}

	@Bean
	OjsDeadLetterController ojsHttpDeadLetterController(OjsDeadLetters deadLetters,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new OjsDeadLetterController(deadLetters, jsonMapper(jsonMapper));
	}

	@Bean
	@ConditionalOnBean(OjsRecurringJobs.class)
	OjsRecurringJobsController ojsHttpRecurringJobsController(OjsRecurringJobs recurringJobs,
			ObjectProvider<JsonMapper> jsonMapper, OjsTemplate template) {
		return new OjsRecurringJobsController(recurringJobs, jsonMapper(jsonMapper), template.getSizeLimits());
	}

	@Bean
	@ConditionalOnBean(Worker.class)
	WorkerDirectives ojsHttpWorkerDirectives(ObjectProvider<OjsWorkerNodes> nodes) {
		return new WorkerDirectives(nodes.getIfAvailable());
	}

	@Bean
	@ConditionalOnBean(Worker.class)
	@ConditionalOnMissingBean
	OjsExternalWorkers ojsExternalWorkers(Worker worker, JobStore store, OjsProperties properties,
			OjsTemplate template) {
		// spec README decision 24: a reservation that names none lasts the worker's visibility timeout
		OjsExternalWorkers workers = new OjsExternalWorkers(worker.remoteAttempts(), store,
				properties.workerSettings().visibilityTimeout());
		workers.setSizeLimits(template.getSizeLimits());
		return workers;
	}

	@Bean
	@ConditionalOnBean(Worker.class)
	OjsWorkersController ojsHttpWorkersController(OjsExternalWorkers workers, ObjectProvider<JsonMapper> jsonMapper,
			WorkerDirectives directives) {
		return new OjsWorkersController(workers, jsonMapper(jsonMapper), directives);
	}

	@Bean
	FilterRegistrationBean<OjsHttpFilter> ojsHttpFilter(ObjectProvider<JsonMapper> jsonMapper) {
		FilterRegistrationBean<OjsHttpFilter> registration = new FilterRegistrationBean<>(
				new OjsHttpFilter(jsonMapper(jsonMapper)));
		registration.setOrder(PROTOCOL_FILTER_ORDER);
		return registration;
	}

	/**
	 * Bounds the binding's request bodies while they are read ({@code ojs.http.max-request-size}):
	 * every path under {@code /ojs} but the Admin API's, right after the protocol headers are
	 * set and before any body is read.
	 */
	@Bean
	FilterRegistrationBean<RequestSizeFilter> ojsHttpRequestSizeFilter(OjsHttpProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) {
		FilterRegistrationBean<RequestSizeFilter> registration = new FilterRegistrationBean<>(
				new RequestSizeFilter(properties.getMaxRequestSize().toBytes(),
						(path) -> OjsPaths.isUnder(path, OjsPaths.ROOT) && !OjsPaths.isAdmin(path),
						jsonMapper(jsonMapper)));
		registration.setOrder(REQUEST_SIZE_FILTER_ORDER);
		return registration;
	}

	private static JsonMapper jsonMapper(ObjectProvider<JsonMapper> jsonMapper) {
		return jsonMapper.getIfUnique(JsonMapper::new);
	}

	/**
	 * Without Spring Security in use (no {@code HttpSecurity}, that is no web security
	 * enabled): the bearer token, or loopback clients when allowed explicitly.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(type = "org.springframework.security.config.annotation.web.builders.HttpSecurity")
	static class TokenConfiguration {

		@Bean
		FilterRegistrationBean<OjsAccessFilter> ojsHttpAccessFilter(OjsHttpProperties properties,
				ObjectProvider<JsonMapper> jsonMapper) {
			return AccessFilters.registration(
					new AccessFilters.Surface("The OJS HTTP binding (ojs.http.enabled=true)", OjsPaths::isBinding,
							"ojs.http.token", "ojs.http.allow-unauthenticated-loopback",
							"enqueue, fetch and ack jobs (any process on this host can run jobs)"),
					BearerToken.of(properties.getToken()), properties.isAllowUnauthenticatedLoopback(),
					properties.getAllowedHosts(), jsonMapper(jsonMapper));
		}

	}

}
