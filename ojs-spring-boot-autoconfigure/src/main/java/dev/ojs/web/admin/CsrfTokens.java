package dev.ojs.web.admin;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

/**
 * The CSRF token of a request, as the dashboard must send it back on writes: {@code
 * header_name}, {@code parameter_name} and {@code token}. Present when Spring Security
 * protects the Admin API.
 */
@FunctionalInterface
public interface CsrfTokens {

	@Nullable Map<String, String> token(HttpServletRequest request);

}
