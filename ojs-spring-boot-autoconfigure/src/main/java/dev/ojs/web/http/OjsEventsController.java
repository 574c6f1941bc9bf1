package dev.ojs.web.http;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

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

	private final OjsEventStream stream;

	private final JsonMapper jsonMapper;

	public OjsEventsController(OjsEventStream stream, JsonMapper jsonMapper) {
		this.stream = stream;
		this.jsonMapper = jsonMapper;
	}

	@GetMapping(path = OjsHttp.BASE_PATH + "/events")
	void events(@RequestParam(required = false) @Nullable String types,
			@RequestParam(required = false) @Nullable String queues,
			@RequestParam(name = "job_types", required = false) @Nullable String jobTypes, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
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

	private static Set<String> names(@Nullable String list) {
		if (list == null || list.isBlank()) {
			return Set.of();
		}
		return Arrays.stream(list.split(",")).map(String::trim).filter((name) -> !name.isEmpty())
			.collect(Collectors.toUnmodifiableSet());
	}

}
