package dev.ojs.web.http;

import java.io.IOException;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiException;
import dev.ojs.web.ErrorBodies;

/**
 * {@code GET /ojs/v1/events} (spec README decision 11): the job lifecycle events of
 * ojs-events.md as server-sent events, each with its event id, its type as the SSE event
 * name, and the §2.1 envelope as JSON data. Filters as in §6.4: {@code types},
 * {@code queues} and {@code job_types}, comma-separated, combined with AND. Beyond the
 * stream's maximum of subscribers, {@code 429 rate_limited}.
 */
@RestController
public class OjsEventsController {

	/** The binding's code for a refusal to be retried later (ojs-http-binding.md §16.3). */
	static final String RATE_LIMITED = "rate_limited";

	/** When a refused subscriber may try again, in seconds. */
	static final int RETRY_AFTER_SECONDS = 5;

	/** How many recent events a JSON answer holds by default, and at most (§6.4). */
	static final int DEFAULT_LIMIT = 100;

	static final int MAX_LIMIT = 1000;

	private final OjsEventStream stream;

	private final JsonMapper jsonMapper;

	public OjsEventsController(OjsEventStream stream, JsonMapper jsonMapper) {
		this.stream = stream;
		this.jsonMapper = jsonMapper;
	}

	@GetMapping(path = OjsHttp.BASE_PATH + "/events")
	void events(@RequestParam(required = false) @Nullable String types,
			@RequestParam(required = false) @Nullable String queues,
			@RequestParam(name = "job_types", required = false) @Nullable String jobTypes,
			@RequestParam(required = false) @Nullable String after,
			@RequestParam(required = false) @Nullable Integer limit, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		if (!acceptsEventStream(request)) {
			int size = (limit != null) ? limit : DEFAULT_LIMIT;
			if (size < 1 || size > MAX_LIMIT) {
				throw ApiException.invalidRequest("limit must be between 1 and " + MAX_LIMIT + ", not " + size,
						Map.of("field", "limit"));
			}
			RecentEvents.Page page = this.stream.recent(after, names(types), names(queues), names(jobTypes), size);
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("events", page.events());
			body.put("cursor", page.cursor());
			body.put("has_more", page.hasMore());
			response.setStatus(200);
			response.setContentType(OjsHttp.MEDIA_TYPE_VALUE);
			this.jsonMapper.writeValue(response.getOutputStream(), body);
			return;
		}
		EventSubscriber subscriber = this.stream.subscribe(names(types), names(queues), names(jobTypes),
				() -> ServletEventOutput.open(request, response));
		if (subscriber == null) {
			// written here: the client's Accept (text/event-stream) admits no JSON answer
			int max = this.stream.maxSubscribers();
			response.setHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
			ErrorBodies.write(this.jsonMapper, request, response, new ApiException(429, RATE_LIMITED,
					"The event stream has its maximum of " + max + " subscribers; try again later.", true,
					Map.of("max_subscribers", max, "retry_after_seconds", RETRY_AFTER_SECONDS)));
		}
	}

	/** Whether the client accepts the stream: only then does it get one. */
	private static boolean acceptsEventStream(HttpServletRequest request) {
		for (Enumeration<String> accept = request.getHeaders(HttpHeaders.ACCEPT); accept.hasMoreElements();) {
			for (MediaType type : MediaType.parseMediaTypes(accept.nextElement())) {
				if (MediaType.TEXT_EVENT_STREAM.equalsTypeAndSubtype(type)) {
					return true;
				}
			}
		}
		return false;
	}

	private static Set<String> names(@Nullable String list) {
		if (list == null || list.isBlank()) {
			return Set.of();
		}
		return Arrays.stream(list.split(",")).map(String::trim).filter((name) -> !name.isEmpty())
			.collect(Collectors.toUnmodifiableSet());
	}

}
