package dev.ojs.web.http;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /ojs/v1/events} (spec README decision 11): the job lifecycle events of
 * ojs-events.md as server-sent events, each with its event id, its type as the SSE event
 * name, and the §2.1 envelope as JSON data. Filters as in §6.4: {@code types},
 * {@code queues} and {@code job_types}, comma-separated, combined with AND.
 */
@RestController
public class OjsEventsController {

	private final OjsEventStream stream;

	public OjsEventsController(OjsEventStream stream) {
		this.stream = stream;
	}

	@GetMapping(path = OjsHttp.BASE_PATH + "/events")
	SseEmitter events(@RequestParam(required = false) @Nullable String types,
			@RequestParam(required = false) @Nullable String queues,
			@RequestParam(name = "job_types", required = false) @Nullable String jobTypes, HttpServletResponse response) {
		// the protocol filter set the binding's media type for JSON answers
		response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		return this.stream.subscribe(names(types), names(queues), names(jobTypes));
	}

	private static Set<String> names(@Nullable String list) {
		if (list == null || list.isBlank()) {
			return Set.of();
		}
		return Arrays.stream(list.split(",")).map(String::trim).filter((name) -> !name.isEmpty())
			.collect(Collectors.toUnmodifiableSet());
	}

}
