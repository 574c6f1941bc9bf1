package dev.ojs.spring.autoconfigure.web;

import java.util.List;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.BearerToken;
import dev.ojs.web.OjsAccessFilter;
import dev.ojs.web.OwnHosts;

/**
 * The {@link OjsAccessFilter} of one surface when Spring Security is not in use, registered
 * behind the request guard: start-up fails without a credential, and letting loopback clients
 * in without one logs a warning.
 */
final class AccessFilters {

	/** Behind the request guard and the binding's protocol filter, ahead of Spring MVC. */
	static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 51;

	private static final Log logger = LogFactory.getLog(AccessFilters.class);

	private AccessFilters() {
	}

	/**
	 * A surface's access rule, as configured.
	 * @param name the surface and its switch, as messages name it
	 * @param paths which routed paths it guards
	 * @param tokenProperties the properties that set its token
	 * @param loopbackProperty the property that lets loopback clients in without one
	 * @param loopbackRisk what such a client can then do
	 */
	record Surface(String name, Predicate<String> paths, String tokenProperties, String loopbackProperty,
			String loopbackRisk) {
	}

	static FilterRegistrationBean<OjsAccessFilter> registration(Surface surface, @Nullable BearerToken token,
			boolean loopback, List<String> allowedHosts, JsonMapper jsonMapper) {
		if (token == null && !loopback) {
			throw new IllegalStateException(surface.name() + " needs a credential without Spring Security: set "
					+ surface.tokenProperties() + ", or " + surface.loopbackProperty()
					+ "=true to serve loopback clients only, or add Spring Security");
		}
		if (loopback) {
			logger.warn(surface.name() + " lets loopback clients " + surface.loopbackRisk() + " without a token ("
					+ surface.loopbackProperty() + "=true)");
		}
		FilterRegistrationBean<OjsAccessFilter> registration = new FilterRegistrationBean<>(
				new OjsAccessFilter(surface.paths(), token, loopback, new OwnHosts(allowedHosts), jsonMapper));
		registration.setOrder(ORDER);
		return registration;
	}

}
