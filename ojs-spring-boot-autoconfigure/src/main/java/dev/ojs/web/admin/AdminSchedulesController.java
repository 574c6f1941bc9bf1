package dev.ojs.web.admin;

import java.time.Instant;
import java.util.ArrayList;
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

import dev.ojs.admin.AdminStore;
import dev.ojs.cron.CronSchedule;
import dev.ojs.cron.Schedule;
import dev.ojs.cron.Schedules;
import dev.ojs.cron.StoredSchedule;
import dev.ojs.cron.Tick;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.web.ApiException;

/**
 * Recurring jobs (extension, ojs-cron.md §8): every schedule with its next five fire times,
 * and pause, resume and trigger of this application's schedules through
 * {@link OjsRecurringJobs}.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/schedules")
public class AdminSchedulesController {

	static final int FIRE_TIMES = 5;

	private final OjsRecurringJobs recurringJobs;

	private final AdminStore admin;

	public AdminSchedulesController(OjsRecurringJobs recurringJobs, AdminStore admin) {
		this.recurringJobs = recurringJobs;
		this.admin = admin;
	}

	@GetMapping
	public Map<String, Object> list() {
		Instant now = this.admin.now();
		List<Map<String, Object>> items = this.recurringJobs.list().stream().map((s) -> view(s, now)).toList();
		return AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
	}

	@GetMapping("/{name}")
	public Map<String, Object> schedule(@PathVariable String name) {
		return view(this.recurringJobs.find(name)
			.orElseThrow(() -> ApiException.notFound("No recurring job named '" + name + "'")), this.admin.now());
	}

	@PostMapping("/{name}/pause")
	public Map<String, Object> pause(@PathVariable String name) {
		return view(call(name, this.recurringJobs::pause), this.admin.now());
	}

	@PostMapping("/{name}/resume")
	public Map<String, Object> resume(@PathVariable String name) {
		return view(call(name, this.recurringJobs::resume), this.admin.now());
	}

	@PostMapping("/{name}/trigger")
	public Map<String, Object> trigger(@PathVariable String name) {
		String jobId = call(name, this.recurringJobs::trigger);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("schedule", schedule(name));
		body.put("job_id", jobId);
		return body;
	}

	/** Runs an operation; an unknown schedule is 404, one of another application 409. */
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

	private Map<String, Object> view(StoredSchedule stored, Instant now) {
		Schedule schedule = stored.schedule();
		boolean paused = Schedules.isPaused(stored);
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", schedule.name());
		view.put("expression", schedule.cron());
		view.put("timezone", schedule.zone());
		view.put("type", schedule.type());
		view.put("queue", schedule.queue());
		view.put("enabled", schedule.enabled());
		view.put("paused", paused);
		view.put("overlap", schedule.overlap().value());
		view.put("next_run_at", AdminViews.time(stored.nextRunAt()));
		view.put("last_run_at", AdminViews.time(stored.lastRunAt()));
		view.put("last_outcome", stored.lastOutcome());
		view.put("last_job_id", stored.lastJobId());
		view.put("run_count", stored.runCount());
		view.put("next_fire_times", (schedule.enabled() && !paused) ? fireTimes(stored, now) : List.of());
		view.put("application", schedule.application());
		view.put("description", schedule.description());
		return view;
	}

	/** The next {@value #FIRE_TIMES} ticks after now, by the schedule's own cron code. */
	static List<String> fireTimes(StoredSchedule stored, Instant now) {
		CronSchedule cron = stored.schedule().schedule();
		List<String> times = new ArrayList<>(FIRE_TIMES);
		Instant after = now;
		for (int i = 0; i < FIRE_TIMES; i++) {
			Tick tick = cron.next(after, stored.anchorAt());
			if (tick == null) {
				break;
			}
			times.add(tick.at().toString());
			after = tick.at();
		}
		return times;
	}

}
