package dev.ojs.sample;

import java.security.SecureRandom;
import java.util.Base64;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.savedrequest.NullRequestCache;

/**
 * Who may use the dashboard: {@code admin} (role {@code OJS_ADMIN}: reads and writes) and
 * {@code viewer} (role {@code OJS_VIEWER}: reads only), with passwords generated at start-up
 * and printed to the log, unless {@code sample.dashboard.admin-password} and
 * {@code sample.dashboard.viewer-password} set them. The starter's own security filter chain
 * guards {@code /ojs/**} (HTTP Basic, CSRF on writes); the same users guard the actuator; the
 * sample's own endpoints ({@code /jobs}) stay open.
 */
@Configuration(proxyBeanMethods = false)
public class SampleSecurityConfiguration {

	private static final Log logger = LogFactory.getLog(SampleSecurityConfiguration.class);

	/** The dashboard's users and their passwords in clear text, to print them. */
	public record DashboardUsers(String adminPassword, String viewerPassword) {
	}

	@Bean
	DashboardUsers dashboardUsers(@Value("${sample.dashboard.admin-password:}") String adminPassword,
			@Value("${sample.dashboard.viewer-password:}") String viewerPassword) {
		return new DashboardUsers(adminPassword.isEmpty() ? generated() : adminPassword,
				viewerPassword.isEmpty() ? generated() : viewerPassword);
	}

	@Bean
	InMemoryUserDetailsManager dashboardUserDetails(DashboardUsers users) {
		PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
		return new InMemoryUserDetailsManager(
				User.withUsername("admin").password(encoder.encode(users.adminPassword())).roles("OJS_ADMIN").build(),
				User.withUsername("viewer").password(encoder.encode(users.viewerPassword())).roles("OJS_VIEWER").build());
	}

	/**
	 * The actuator: health is open; every other read (dead letters carry their jobs' args)
	 * needs the viewer or the admin role, and every write (retry, delete, pause, trigger) the
	 * admin role, like the dashboard. Clients send HTTP Basic with each request, so no session
	 * and no CSRF token: the starter's request guard refuses writes a browser sends from
	 * another origin to the OJS endpoints.
	 */
	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE - 30)
	SecurityFilterChain sampleActuatorSecurityFilterChain(HttpSecurity http) throws Exception {
		http.securityMatcher(EndpointRequest.toAnyEndpoint())
			.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to(HealthEndpoint.class))
				.permitAll()
				.requestMatchers((request) -> "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod()))
				.hasAnyRole("OJS_VIEWER", "OJS_ADMIN")
				.anyRequest()
				.hasRole("OJS_ADMIN"))
			.httpBasic(Customizer.withDefaults())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache((cache) -> cache.requestCache(new NullRequestCache()))
			.csrf((csrf) -> csrf.disable());
		return http.build();
	}

	/**
	 * Everything else outside the dashboard is open, as it was before the sample had users (the
	 * sample's own endpoints take no credentials, so they need no CSRF token either).
	 */
	@Bean
	SecurityFilterChain sampleSecurityFilterChain(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll()).csrf((csrf) -> csrf.disable());
		return http.build();
	}

	@EventListener
	void printCredentials(WebServerInitializedEvent event) {
		String contextPath = event.getApplicationContext().getEnvironment().getProperty("server.servlet.context-path", "");
		String path = event.getApplicationContext().getEnvironment().getProperty("ojs.dashboard.path", "/ojs");
		DashboardUsers users = event.getApplicationContext().getBean(DashboardUsers.class);
		logger.info("""

				OJS dashboard: http://localhost:%d%s%s/
				    admin  / %s   (role OJS_ADMIN: read and write)
				    viewer / %s   (role OJS_VIEWER: read only)
				""".formatted(event.getWebServer().getPort(), contextPath, path, users.adminPassword(),
				users.viewerPassword()));
	}

	private static String generated() {
		byte[] bytes = new byte[15];
		new SecureRandom().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
