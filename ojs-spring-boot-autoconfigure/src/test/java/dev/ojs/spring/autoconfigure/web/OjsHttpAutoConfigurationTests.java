package dev.ojs.spring.autoconfigure.web;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.ojs.spring.autoconfigure.OjsAutoConfiguration;
import dev.ojs.spring.autoconfigure.OjsWorkerAutoConfiguration;
import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.http.OjsJobsController;
import dev.ojs.web.http.OjsWorkersController;

import static org.assertj.core.api.Assertions.assertThat;

/** When the HTTP binding is configured: only on request, only in a servlet application, never unguarded. */
class OjsHttpAutoConfigurationTests {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(DataSourceAutoConfiguration.class,
			DataSourceTransactionManagerAutoConfiguration.class, OjsAutoConfiguration.class,
			OjsWorkerAutoConfiguration.class, OjsHttpAutoConfiguration.class);

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withPropertyValues("spring.datasource.generate-unique-name=true", "ojs.worker.auto-startup=false")
		.withConfiguration(CONFIGURATIONS);

	@Test
	void offByDefault() {
		this.web.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsJobsController.class));
	}

	@Test
	void onWithATokenOrLoopbackOnly() {
		this.web.withPropertyValues("ojs.http.enabled=true", "ojs.http.token=t")
			.run((context) -> assertThat(context).hasSingleBean(OjsJobsController.class)
				.hasSingleBean(OjsWorkersController.class)
				.hasSingleBean(ApiExceptionHandler.class)
				.hasBean("ojsHttpAccessFilter"));
		this.web.withPropertyValues("ojs.http.enabled=true", "ojs.http.allow-unauthenticated-loopback=true")
			.run((context) -> assertThat(context).hasBean("ojsHttpAccessFilter"));
	}

	@Test
	void neverUnguarded() {
		this.web.withPropertyValues("ojs.http.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("ojs.http.token"));
	}

	@Test
	void workerEndpointsNeedTheWorker() {
		this.web.withPropertyValues("ojs.http.enabled=true", "ojs.http.token=t", "ojs.worker.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(OjsJobsController.class)
				.doesNotHaveBean(OjsWorkersController.class));
	}

	@Test
	void notOutsideAServletApplication() {
		new ApplicationContextRunner().withPropertyValues("spring.datasource.generate-unique-name=true",
				"ojs.http.enabled=true", "ojs.http.token=t")
			.withConfiguration(CONFIGURATIONS)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OjsJobsController.class));
	}

}
