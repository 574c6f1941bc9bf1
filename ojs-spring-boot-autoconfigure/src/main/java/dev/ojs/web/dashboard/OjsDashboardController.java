package dev.ojs.web.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Serves the dashboard at {@code ojs.dashboard.path} (default {@code /ojs}): the page at
 * {@code <path>/} and its assets at {@code <path>/assets/<file>}. Every URL the page uses is
 * relative, so it works under a servlet context path and behind a proxy that strips a prefix.
 */
@Controller
@RequestMapping("${ojs.dashboard.path:/ojs}")
public class OjsDashboardController {

	static final String LOCATION = "dev/ojs/web/dashboard/";

	private static final Map<String, MediaType> TYPES = Map.of("css", new MediaType("text", "css", StandardCharsets.UTF_8),
			"js", new MediaType("text", "javascript", StandardCharsets.UTF_8), "svg",
			MediaType.valueOf("image/svg+xml"));

	/** No inline script, no third-party origin: everything comes from this application. */
	private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
			+ "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
			+ "frame-ancestors 'self'; base-uri 'self'; form-action 'self'";

	private final String page;

	private final String lastSegment;

	/**
	 * @param dashboardPath the value of {@code ojs.dashboard.path}
	 */
	public OjsDashboardController(String dashboardPath) {
		this.page = read("index.html").replace("@OJS_API@", apiPath(dashboardPath));
		String trimmed = dashboardPath.replaceAll("/+$", "");
		this.lastSegment = trimmed.substring(trimmed.lastIndexOf('/') + 1);
	}

	/**
	 * The Admin API's path relative to the dashboard page ({@code <path>/}): the API stays at
	 * {@code /ojs/v1/admin} whatever the dashboard's path.
	 */
	static String apiPath(String dashboardPath) {
		long depth = Arrays.stream(dashboardPath.split("/")).filter((segment) -> !segment.isEmpty()).count();
		return "../".repeat((int) depth) + "ojs/v1/admin";
	}

	/** {@code <path>} without the slash: to {@code <path>/}, so relative URLs resolve under it. */
	@GetMapping
	public ResponseEntity<Void> redirect() {
		return ResponseEntity.status(HttpStatus.FOUND).header(HttpHeaders.LOCATION, this.lastSegment + "/").build();
	}

	@GetMapping({ "/", "/index.html" })
	public ResponseEntity<String> page() {
		return ResponseEntity.ok()
			.contentType(new MediaType("text", "html", StandardCharsets.UTF_8))
			.cacheControl(CacheControl.noStore())
			.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
			.header("X-Content-Type-Options", "nosniff")
			.header("Referrer-Policy", "same-origin")
			.body(this.page);
	}

	@GetMapping("/assets/{file:[a-z0-9-]+\\.(?:css|js|svg)}")
	public ResponseEntity<Resource> asset(@PathVariable String file) {
		Resource resource = new ClassPathResource(LOCATION + file);
		if (!resource.exists()) {
			return ResponseEntity.notFound().build();
		}
		return ResponseEntity.ok()
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
