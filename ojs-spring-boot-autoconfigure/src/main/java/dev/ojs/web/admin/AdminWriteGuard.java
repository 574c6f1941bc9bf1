package dev.ojs.web.admin;

import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.servlet.HandlerInterceptor;

import dev.ojs.web.ApiException;

/**
 * Refuses every write of the Admin API while {@code ojs.dashboard.read-only} is on, with
 * {@code 403 forbidden} in the binding's error body. (Cross-origin writes are refused earlier,
 * by {@link dev.ojs.web.OjsRequestGuard}.)
 */
public class AdminWriteGuard implements HandlerInterceptor {

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	private final boolean readOnly;

	public AdminWriteGuard(boolean readOnly) {
		this.readOnly = readOnly;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (READS.contains(request.getMethod())) {
			return true;
		}
		if (this.readOnly) {
			throw ApiException.forbidden("The OJS dashboard is read-only (ojs.dashboard.read-only=true)");
		}
		return true;
	}

}
