package dev.ojs.spring.autoconfigure.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.savedrequest.NullRequestCache;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.ErrorBodies;
import dev.ojs.web.OjsPaths;
import dev.ojs.web.admin.CsrfTokens;

/**
 * Access control of the Admin API and the dashboard with Spring Security: a
 * {@link SecurityFilterChain} of their own on {@code /ojs/v1/admin/**} and the dashboard's
 * path less the HTTP binding's paths (decided on the routed path), ahead of the application's
 * chains. Reads need the viewer or the admin role, writes the admin role and a CSRF token
 * (kept in the session; {@code system/config} hands it to the dashboard). Unauthenticated
 * requests get HTTP Basic's challenge, without a session made for them; refusals the
 * binding's error body.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ SecurityFilterChain.class, HttpSecurity.class })
@ConditionalOnBean(HttpSecurity.class)
class OjsDashboardSecurityConfiguration {

	/**
	 * Boot's {@code SecurityProperties.BASIC_AUTH_ORDER} ({@code LOWEST_PRECEDENCE - 5}) less
	 * 20: ahead of Boot's default chain and of the HTTP binding's ({@code - 10}).
	 */
	static final int ORDER = Ordered.LOWEST_PRECEDENCE - 5 - 20;

	private static final Set<HttpMethod> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD);

	@Bean
	@Order(ORDER)
	SecurityFilterChain ojsDashboardSecurityFilterChain(HttpSecurity http, OjsDashboardProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) throws Exception {
		JsonMapper mapper = jsonMapper.getIfUnique(JsonMapper::new);
		String path = properties.normalizedPath();
		String viewer = properties.getViewerRole();
		String admin = properties.getAdminRole();
		// one challenge, with the binding's error body, for no credential and for a wrong one (HTTP Basic's own)
		AuthenticationEntryPoint challenge = (request, response, ex) -> {
			response.setHeader("WWW-Authenticate", "Basic realm=\"OJS\"");
			ErrorBodies.write(mapper, request, response, new ApiException(401, ApiError.UNAUTHORIZED,
					"Authentication is required.", false, Map.of()));
		};
		http.securityMatcher(OjsHttpSecurityConfiguration.routed((routed) -> OjsPaths.isAdmin(routed)
				|| (OjsPaths.isUnder(routed, path) && !OjsPaths.isBinding(routed))))
			.authorizeHttpRequests((requests) -> requests
				.requestMatchers((request) -> READS.contains(HttpMethod.valueOf(request.getMethod())))
				.hasAnyRole(viewer, admin)
				.anyRequest()
				.hasRole(admin))
			.csrf((csrf) -> csrf.csrfTokenRepository(new SessionCsrfTokens())
				.requireCsrfProtectionMatcher(OjsDashboardSecurityConfiguration::carriesCredentials))
			.requestCache((cache) -> cache.requestCache(new NullRequestCache()))
			.httpBasic((basic) -> basic.authenticationEntryPoint(challenge))
			.exceptionHandling((exceptions) -> exceptions
				.authenticationEntryPoint(challenge)
				.accessDeniedHandler((request, response, ex) -> ErrorBodies.write(mapper, request, response,
						ApiException.forbidden("Access denied: this role may not do this, or the CSRF token is missing."))));
		return http.build();
	}

	/** The request's CSRF token for {@code system/config}. */
	@Bean
	CsrfTokens ojsDashboardCsrfTokens() {
		return (request) -> {
			if (!(request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token)) {
				return null;
			}
			Map<String, String> view = new LinkedHashMap<>();
			view.put("header_name", token.getHeaderName());
			view.put("parameter_name", token.getParameterName());
			view.put("token", token.getToken());
			return view;
		};
	}

	/**
	 * A write that carries a credential a browser may attach by itself (a session cookie, or
	 * HTTP Basic credentials it remembers) needs a CSRF token. One with neither is anonymous:
	 * it is refused with {@code 401}, and no session or token is made for it.
	 */
	private static boolean carriesCredentials(HttpServletRequest request) {
		return CsrfFilter.DEFAULT_CSRF_MATCHER.matches(request)
				&& (request.getHeader("Authorization") != null || request.getSession(false) != null);
	}

}
