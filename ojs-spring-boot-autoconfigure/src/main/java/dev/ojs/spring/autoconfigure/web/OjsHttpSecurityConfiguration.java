package dev.ojs.spring.autoconfigure.web;

import java.util.Map;
import java.util.function.Predicate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.savedrequest.NullRequestCache;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.BearerToken;
import dev.ojs.web.ErrorBodies;
import dev.ojs.web.OjsPaths;
import dev.ojs.web.http.OjsHttp;

/**
 * Access control of the OJS HTTP binding with Spring Security: a {@link SecurityFilterChain}
 * of its own on {@code /ojs/v1/**} and {@code /ojs/manifest}, never on the Admin API
 * ({@code /ojs/v1/admin/**}, which has its own chain, ordered ahead). Producers
 * ({@code ojs.http.producer-role}) enqueue, look up and cancel jobs; workers
 * ({@code ojs.http.worker-role}) fetch, heartbeat, ack and nack; admins
 * ({@code ojs.http.admin-role}) may do all that and manage dead letters; any of the three
 * reads health and manifest. Clients authenticate with HTTP Basic or with
 * {@code ojs.http.token} as a bearer token, which holds the admin role (or with whatever the
 * application sets up by declaring its own {@value #CHAIN_BEAN} bean); refusals carry the
 * binding's error body. Which requests are the binding's is decided on the routed path
 * ({@link OjsPaths#routedPath}), so the dashboard's chain never takes them.
 * <p>
 * CSRF protection is off for this chain, and sessions are neither created nor used: the
 * binding is an API for programs that authenticate every request. A page on another origin
 * cannot forge one of its writes: {@link dev.ojs.web.OjsRequestGuard} refuses writes that a
 * browser sends cross-origin, and every POST must be {@code application/json} or
 * {@code application/openjobspec+json}, which a browser sends across origins only after a
 * CORS preflight that this binding does not grant.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ SecurityFilterChain.class, HttpSecurity.class })
@ConditionalOnBean(HttpSecurity.class)
class OjsHttpSecurityConfiguration {

	/** The chain's bean name: an application bean of this name replaces it. */
	static final String CHAIN_BEAN = "ojsHttpSecurityFilterChain";

	/**
	 * Boot's {@code SecurityProperties.BASIC_AUTH_ORDER} ({@code LOWEST_PRECEDENCE - 5}) less
	 * 10: ahead of Boot's default chain, behind the Admin API's ({@code - 20}).
	 */
	static final int ORDER = Ordered.LOWEST_PRECEDENCE - 5 - 10;

	@Bean(CHAIN_BEAN)
	@Order(ORDER)
	@ConditionalOnMissingBean(name = CHAIN_BEAN)
	SecurityFilterChain ojsHttpSecurityFilterChain(HttpSecurity http, OjsHttpProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) throws Exception {
		JsonMapper mapper = jsonMapper.getIfUnique(JsonMapper::new);
		String producer = properties.getProducerRole();
		String worker = properties.getWorkerRole();
		String admin = properties.getAdminRole();
		// one challenge, with the binding's error body, for no credential and for a wrong one (HTTP Basic's own)
		AuthenticationEntryPoint challenge = (request, response, ex) -> {
			response.setHeader("WWW-Authenticate", "Basic realm=\"OJS\"");
			ErrorBodies.write(mapper, request, response, new ApiException(401, ApiError.UNAUTHORIZED,
					"Authentication is required.", false, Map.of()));
		};
		http.securityMatcher(routed(OjsPaths::isBinding))
			.authorizeHttpRequests((requests) -> requests
				.requestMatchers(routed(HttpMethod.GET, (path) -> path.equals(OjsHttp.BASE_PATH + "/health")
						|| path.equals(OjsHttp.MANIFEST_PATH)))
				.hasAnyRole(producer, worker, admin)
				.requestMatchers(routed((path) -> OjsPaths.isUnder(path, OjsHttp.BASE_PATH + "/jobs")))
				.hasAnyRole(producer, admin)
				.requestMatchers(routed((path) -> OjsPaths.isUnder(path, OjsHttp.BASE_PATH + "/workers")))
				.hasAnyRole(worker, admin)
				.anyRequest()
				.hasRole(admin))
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache((cache) -> cache.requestCache(new NullRequestCache()))
			.httpBasic((basic) -> basic.authenticationEntryPoint(challenge))
			.exceptionHandling((exceptions) -> exceptions
				.authenticationEntryPoint(challenge)
				.accessDeniedHandler((request, response, ex) -> ErrorBodies.write(mapper, request, response,
						ApiException.forbidden("This role may not use this endpoint."))));
		BearerToken token = BearerToken.of(properties.getToken());
		if (token != null) {
			http.addFilterBefore(new TokenAuthenticationFilter(token, admin), BasicAuthenticationFilter.class);
		}
		return http.build();
	}

	/** A matcher on the path Spring MVC routes ({@link OjsPaths#routedPath}). */
	static RequestMatcher routed(Predicate<String> path) {
		return (request) -> path.test(OjsPaths.routedPath(request));
	}

	private static RequestMatcher routed(HttpMethod method, Predicate<String> path) {
		return (request) -> method.matches(request.getMethod()) && path.test(OjsPaths.routedPath(request));
	}

}
