package dev.ojs.web.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Serves the dashboard at {@code ojs.dashboard.path} (default {@code /ojs}): the page at
 * {@code <path>/} and its assets at {@code <path>/assets/<file>}, through the
 * {@link #routes() router function} it builds for that path. Every URL the page uses is
 * relative, so it works under a servlet context path and behind a proxy that strips a prefix.
 */
public class OjsDashboardController {

	static final String LOCATION = "dev/ojs/web/dashboard/";

	private static final Map<String, MediaType> TYPES = Map.of("css", new MediaType("text", "css", StandardCharsets.UTF_8),
			"js", new MediaType("text", "javascript", StandardCharsets.UTF_8), "svg",
			MediaType.valueOf("image/svg+xml"));

	/** No inline script, no third-party origin: everything comes from this application. */
	static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
			+ "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
			+ "frame-ancestors 'self'; base-uri 'self'; form-action 'self'";

	private final String path;

	private final String page;

	/**
	 * @param dashboardPath the dashboard's path with a leading and without a trailing slash
	 */
	public OjsDashboardController(String dashboardPath) {
		this.path = dashboardPath;
		this.page = read("index.html").replace("@OJS_API@", apiPath(dashboardPath));
	}

	/**
	 * The Admin API's path relative to the dashboard page ({@code <path>/}): the API stays at
	 * {@code /ojs/v1/admin} whatever the dashboard's path.
	 */
	static String apiPath(String dashboardPath) {
		long depth = Arrays.stream(dashboardPath.split("/")).filter((segment) -> !segment.isEmpty()).count();
		return "../".repeat((int) depth) + "ojs/v1/admin";
	}

	/** The page, its assets, and {@code <path>} redirected to {@code <path>/}. */
	public RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route()
			.GET(this.path, this::redirect)
			.GET(this.path + "/", this::page)
			.GET(this.path + "/index.html", this::page)
			.GET(this.path + "/assets/{file:[a-z0-9-]+\\.(?:css|js|svg)}", this::asset)
			.build();
	}

	/** {@code <path>} without the slash: to {@code <path>/}, so relative URLs resolve under it. */
	private ServerResponse redirect(ServerRequest request) {
		String lastSegment = this.path.substring(this.path.lastIndexOf('/') + 1);
		return ServerResponse.status(302).location(URI.create(lastSegment + "/")).build();
	}

	private ServerResponse page(ServerRequest request) {
		return ServerResponse.ok()
			.contentType(new MediaType("text", "html", StandardCharsets.UTF_8))
			.cacheControl(CacheControl.noStore())
			.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
			.header("X-Content-Type-Options", "nosniff")
			.header("Referrer-Policy", "same-origin")
			.body(this.page);
	}

	private ServerResponse asset(ServerRequest request) {
		String file = request.pathVariable("file");
		Resource resource = new ClassPathResource(LOCATION + file);
		if (!resource.exists()) {
			return ServerResponse.notFound().build();
		}
		return ServerResponse.ok()
			.contentType(TYPES.get(file.substring(file.lastIndexOf('.') + 1)))
			.cacheControl(CacheControl.noCache())
			.header("X-Content-Type-Options", "nosniff")
			.body(resource);
	}

	private static String read(String file) {
		try (InputStream in = new ClassPathResource(LOCATION + file).getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Dashboard resource " + file + " is missing", ex);
		}
	}

}
