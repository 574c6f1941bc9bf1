package dev.ojs.spring.autoconfigure.web;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.web.SecurityFilterChain;

import dev.ojs.admin.AdminStore;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.autoconfigure.OjsAutoConfiguration;
import dev.ojs.web.admin.AdminApiSettings;
import dev.ojs.web.admin.AdminDeadLetterController;
import dev.ojs.web.admin.AdminJobsController;
import dev.ojs.web.admin.CsrfTokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the Admin API is on, and how it is secured (issue 15 item 3).
 */
class OjsDashboardAutoConfigurationTests {

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withPropertyValues("spring.datasource.generate-unique-name=true")
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, OjsAutoConfiguration.class,
				OjsDashboardAutoConfiguration.class));

	/** The Admin API is off; the queries it shares with the Java API's services are not. */
	@Test
	void isOffByDefault() {
		this.web.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(AdminJobsController.class)
			.doesNotHaveBean(AdminDeadLetterController.class)
			.hasSingleBean(AdminStore.class)
			.hasSingleBean(OjsDeadLetters.class));
	}

	@Test
	void isOffOutsideServletApplications() {
		new ApplicationContextRunner().withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken")
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, OjsAutoConfiguration.class,
					OjsDashboardAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(AdminJobsController.class));
	}

	/** Defaults: read-only, args shown, dashboard at /ojs. */
	@Test
	void isReadOnlyByDefaultWhenEnabled() {
		this.web.withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken").run((context) -> {
			assertThat(context).hasSingleBean(AdminJobsController.class).hasSingleBean(AdminStore.class);
			AdminApiSettings settings = context.getBean(AdminApiSettings.class);
			assertThat(settings.readOnly()).isTrue();
			assertThat(settings.showArgs()).isTrue();
			assertThat(settings.dashboardPath()).isEqualTo("/ojs");
			assertThat(settings.bulkLimit()).isEqualTo(10_000);
			OjsDashboardProperties properties = context.getBean(OjsDashboardProperties.class);
			assertThat(properties.getViewerRole()).isEqualTo("OJS_VIEWER");
			assertThat(properties.getAdminRole()).isEqualTo("OJS_ADMIN");
		});
	}

	@Test
	void normalizesTheDashboardPath() {
		this.web.withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken", "ojs.dashboard.path=admin/jobs/")
			.run((context) -> assertThat(context.getBean(AdminApiSettings.class).dashboardPath())
				.isEqualTo("/admin/jobs"));
	}

	/** Without Spring Security on the classpath: no filter chain, no CSRF tokens, the write guard only. */
	@Test
	void startsWithoutSpringSecurity() {
		this.web.withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken")
			.withClassLoader(new FilteredClassLoader(SecurityFilterChain.class, HttpSecurity.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(AdminJobsController.class)
				.doesNotHaveBean(CsrfTokens.class)
				.hasBean("ojsAdminWriteGuardConfigurer"));
	}

	/** Spring Security on the classpath but not in use (no web security): the rules without it apply. */
	@Test
	void leavesSecurityAloneWhenTheApplicationDoesNotUseIt() {
		this.web.withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken")
			.run((context) -> assertThat(context).doesNotHaveBean(SecurityFilterChain.class));
	}

	/** With web security: a filter chain of its own, ahead of Boot's default (BASIC_AUTH_ORDER - 20). */
	@Test
	void addsAFilterChainWithWebSecurity() {
		this.web.withPropertyValues("ojs.dashboard.enabled=true", "ojs.dashboard.token=t0ken")
			.withUserConfiguration(WebSecurity.class)
			.run((context) -> {
				assertThat(context).hasBean("ojsDashboardSecurityFilterChain").hasSingleBean(CsrfTokens.class);
				assertThat(OjsDashboardSecurityConfiguration.ORDER).isEqualTo(Integer.MAX_VALUE - 25);
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class WebSecurity {

	}

}
