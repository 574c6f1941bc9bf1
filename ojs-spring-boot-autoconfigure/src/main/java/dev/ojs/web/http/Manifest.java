package dev.ojs.web.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conformance manifest (ojs-http-binding.md §21, ojs-conformance.md §4): it declares
 * only the level and the capabilities this binding fully implements and tests (spec README
 * decision 10), and lists what it leaves out.
 */
public final class Manifest {

	/**
	 * The conformance level declared while the cron endpoints are served, by the suite's rule:
	 * the highest level whose cases, and those of every lower level, all pass: every case of
	 * levels 0 to 4 passes (workflows, level 3, too).
	 */
	public static final int CONFORMANCE_LEVEL = 4;

	/** The conformance level declared without the cron endpoints: level 2's cron cases fail. */
	public static final int LEVEL_WITHOUT_CRON = 1;


	/** What unique jobs support (ojs-unique-jobs.md §8.3). */
	private static final Map<String, Object> UNIQUE_JOBS = Map.of("strength", "strong", "on_conflict",
			List.of("reject", "ignore", "use_existing", "replace"), "keys", List.of("type", "queue", "args", "meta"),
			"period", true, "states", List.of("scheduled", "available", "active", "retryable"));

	/** What the binding accepts beyond the spec. */
	private static final List<String> EXTENSIONS = List.of("x-fetch-types", "x-nack-handler-codes",
			"x-heartbeat-jobs-lost", "x-relative-scheduled-at", "x-relative-expires-at", "x-named-priorities",
			"x-batch-ack");

	/**
	 * Requirements of the declared levels the binding does not meet, by requirement id of
	 * ojs-conformance.md (or field of openapi.yaml), so that a client can tell exactly.
	 */
	private static final List<String> LIMITATIONS = List.of(
			"ojs-events.md job.scheduled, job.progress, queue, worker and cron events: not on /ojs/v1/events");

	private final String version;

	private final Map<String, Boolean> capabilities;

	private final int level;

	/**
	 * @param version the implementation's version
	 * @param cron whether the cron endpoints are served (recurring jobs are on)
	 */
	public Manifest(String version, boolean cron) {
		this.version = version;
		this.capabilities = capabilities(cron);
		this.level = cron ? CONFORMANCE_LEVEL : LEVEL_WITHOUT_CRON;
	}

	private static Map<String, Boolean> capabilities(boolean cron) {
		Map<String, Boolean> capabilities = new LinkedHashMap<>();
		capabilities.put("batch_enqueue", true);
		capabilities.put("cron_jobs", cron);
		capabilities.put("dead_letter", true);
		capabilities.put("delayed_jobs", true);
		capabilities.put("job_ttl", true);
		capabilities.put("priority_queues", true);
		capabilities.put("rate_limiting", true);
		capabilities.put("schema_validation", false);
		capabilities.put("unique_jobs", true);
		capabilities.put("workflows", true);
		capabilities.put("pause_resume", true);
		capabilities.put("heartbeat", true);
		capabilities.put("visibility_timeout", true);
		capabilities.put("events", true);
		return capabilities;
	}

	Map<String, Object> toJson(String backend) {
		Map<String, Object> implementation = new LinkedHashMap<>();
		implementation.put("name", "ojs-spring-boot-starter");
		implementation.put("version", this.version);
		implementation.put("language", "java");
		implementation.put("backend", backend);
		Map<String, Object> endpoints = new LinkedHashMap<>();
		endpoints.put("base_url", OjsHttp.BASE_PATH);
		endpoints.put("manifest", OjsHttp.MANIFEST_PATH);
		endpoints.put("health", OjsHttp.BASE_PATH + "/health");
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("specversion", OjsHttp.VERSION);
		json.put("ojs_version", OjsHttp.VERSION);
		json.put("implementation", implementation);
		json.put("conformance_level", this.level);
		json.put("protocols", List.of("http"));
		json.put("backend", backend);
		json.put("capabilities", this.capabilities);
		json.put("extensions", EXTENSIONS);
		json.put("unique_jobs", UNIQUE_JOBS);
		json.put("limitations", LIMITATIONS);
		json.put("endpoints", endpoints);
		return json;
	}

}
