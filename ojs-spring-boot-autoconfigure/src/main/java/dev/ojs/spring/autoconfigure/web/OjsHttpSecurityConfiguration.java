package dev.ojs.spring.autoconfigure.web;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.http.OjsHttp;

/**
 * Access control of the OJS HTTP binding with Spring Security: a {@link SecurityFilterChain}
 * of its own on {@code /ojs/v1/**} and {@code /ojs/manifest}, never on the Admin API
 * ({@code /ojs/v1/admin/**}, which has its own chain, ordered ahead). Producers
 * ({@code ojs.http.producer-role}) enqueue, look up and cancel jobs; workers
 * ({@code ojs.http.worker-role}) fetch, heartbeat, ack and nack; admins
 * ({@code ojs.http.admin-role}) may do all that and manage dead letters; any of the three
 * reads health and manifest. Clients authenticate with HTTP Basic (or whatever the
 * application adds by declaring its own {@value #CHAIN_BEAN} bean); refusals carry the
 * binding's error body.
 * <p>
 * CSRF protection is off for this chain, and sessions are neither created nor used: the
 * binding is an API for programs that authenticate every request. A cross-site page cannot
 * forge one of its writes: every POST must be {@code application/json} or
 * {@code application/openjobspec+json} ({@link dev.ojs.web.http.OjsHttpFilter} refuses any
 * other media type before authentication), and a browser sends such a request, like any
 * {@code DELETE}, only after a CORS preflight that this binding does not grant.
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
		http.securityMatcher(OjsHttpSecurityConfiguration::isBindingRequest)
			.authorizeHttpRequests((requests) -> requests
				.requestMatchers(path(HttpMethod.GET, OjsHttp.BASE_PATH + "/health"), path(HttpMethod.GET, OjsHttp.MANIFEST_PATH))
				.hasAnyRole(producer, worker, admin)
				.requestMatchers(prefix(OjsHttp.BASE_PATH + "/jobs"))
				.hasAnyRole(producer, admin)
				.requestMatchers(prefix(OjsHttp.BASE_PATH + "/workers"))
				.hasAnyRole(worker, admin)
				.anyRequest()
				.hasRole(admin))
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.httpBasic(Customizer.withDefaults())
			.exceptionHandling((exceptions) -> exceptions
				.authenticationEntryPoint((request, response, ex) -> {
					response.setHeader("WWW-Authenticate", "Basic realm=\"OJS\"");
					write(response, mapper, new ApiException(401, ApiError.UNAUTHORIZED, "Authentication is required.",
							false, Map.of()));
				})
				.accessDeniedHandler((request, response, ex) -> write(response, mapper,
						ApiException.forbidden("This role may not use " + request.getRequestURI() + "."))));
		return http.build();
	}

	static boolean isBindingRequest(HttpServletRequest request) {
		return OjsHttp.isBindingPath(request.getRequestURI().substring(request.getContextPath().length()));
	}

	private static RequestMatcher path(HttpMethod method, String path) {
		return (request) -> method.matches(request.getMethod()) && path(request).equals(path);
	}

	private static RequestMatcher prefix(String prefix) {
		return (request) -> path(request).equals(prefix) || path(request).startsWith(prefix + "/");
	}

	private static String path(HttpServletRequest request) {
		return request.getRequestURI().substring(request.getContextPath().length());
	}

	private static void write(HttpServletResponse response, JsonMapper mapper, ApiException refusal)
			throws IOException {
		String requestId = response.getHeader(ApiExceptionHandler.REQUEST_ID_HEADER);
		response.setStatus(refusal.status());
		response.setContentType(OjsHttp.MEDIA_TYPE_VALUE);
		mapper.writeValue(response.getOutputStream(),
				refusal.toError((requestId != null) ? requestId : "req_unknown").toBody());
	}

}
