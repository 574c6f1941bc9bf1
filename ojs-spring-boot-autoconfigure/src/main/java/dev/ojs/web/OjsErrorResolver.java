package dev.ojs.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers with the binding's error body the requests under an OJS surface that no OJS
 * controller took, where {@link ApiExceptionHandler} (a controller advice) does not apply:
 * an unknown path ({@code 404}), a known path with another method ({@code 405}), a media
 * type Spring MVC refuses before any controller ({@code 415}), a refusal of an interceptor
 * for such a path. The answer is {@link ApiExceptionHandler#refusal(Throwable)}'s, so that
 * there is one translation of exceptions for all of them. Ordered ahead of Spring MVC's
 * resolvers; requests for the application's own paths are left to them.
 */
public class OjsErrorResolver implements HandlerExceptionResolver, Ordered {

	/** Right after Spring Boot's {@code DefaultErrorAttributes}, which only records the error. */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1;

	private final JsonMapper jsonMapper;

	private final List<String> prefixes;

	/**
	 * @param prefixes the paths, relative to the context path, under which the OJS surfaces
	 * lie ({@link OjsPaths#ROOT} and the dashboard's path)
	 */
	public OjsErrorResolver(JsonMapper jsonMapper, List<String> prefixes) {
		this.jsonMapper = jsonMapper;
		this.prefixes = List.copyOf(prefixes);
	}

	@Override
	public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
			@Nullable Object handler, Exception ex) {
		if (isOjsController(handler) || response.isCommitted() || !isOjsPath(OjsPaths.routedPath(request))) {
			return null;
		}
		ApiException refusal = ApiExceptionHandler.refusal(ex);
		if (refusal == null) {
			return null;
		}
		try {
			String allow = ApiExceptionHandler.allow(ex);
			if (allow != null) {
				response.setHeader("Allow", allow);
			}
			ErrorBodies.write(this.jsonMapper, request, response, refusal);
		}
		catch (IOException failed) {
			// the client went away; nothing more to answer
		}
		return new ModelAndView();
	}

	/** Whether {@link ApiExceptionHandler} answers for this handler. */
	private static boolean isOjsController(@Nullable Object handler) {
		return handler instanceof HandlerMethod method
				&& method.getBeanType().getPackageName().startsWith("dev.ojs.web");
	}

	private boolean isOjsPath(String path) {
		for (String prefix : this.prefixes) {
			if (!prefix.isEmpty() && !prefix.equals("/") && OjsPaths.isUnder(path, prefix)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
