package dev.ojs.web.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.json.RecurringJobJson;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.web.ApiException;

/**
 * Recurring jobs (extension, ojs-cron.md §8): every recurring job with its next five fire times,
 * and pause, resume and trigger of this application's recurring jobs through
 * {@link OjsRecurringJobs}.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/schedules")
public class AdminRecurringJobsController {

	static final int FIRE_TIMES = 5;

	private final OjsRecurringJobs recurringJobs;

	public AdminRecurringJobsController(OjsRecurringJobs recurringJobs) {
		this.recurringJobs = recurringJobs;
	}

	@GetMapping
	public Map<String, Object> list() {
		List<Map<String, Object>> items = this.recurringJobs.list().stream().map(this::view).toList();
		return AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
	}

	@GetMapping("/{name}")
	public Map<String, Object> definition(@PathVariable String name) {
		return view(this.recurringJobs.find(name)
			.orElseThrow(() -> ApiException.notFound("No recurring job named '" + name + "'")));
	}

	@PostMapping("/{name}/pause")
	public Map<String, Object> pause(@PathVariable String name) {
		return view(call(name, this.recurringJobs::pause));
	}

	@PostMapping("/{name}/resume")
	public Map<String, Object> resume(@PathVariable String name) {
		return view(call(name, this.recurringJobs::resume));
	}

	@PostMapping("/{name}/trigger")
	public Map<String, Object> trigger(@PathVariable String name) {
		String jobId = call(name, this.recurringJobs::trigger);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("schedule", definition(name));
		body.put("job_id", jobId);
		return body;
	}

	/** Runs an operation; an unknown recurring job is 404, one of another application 409. */
	private static <T> T call(String name, Function<String, T> operation) {
		try {
			return operation.apply(name);
		}
		catch (NoSuchElementException ex) {
			throw ApiException.notFound(String.valueOf(ex.getMessage()));
		}
		catch (IllegalStateException ex) {
			throw ApiException.conflict(String.valueOf(ex.getMessage()));
		}
	}

	private Map<String, Object> view(StoredRecurringJob stored) {
		return RecurringJobJson.admin(stored, this.recurringJobs.nextFireTimes(stored, FIRE_TIMES));
	}

}
