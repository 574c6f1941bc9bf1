package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.spring.OjsJobs;

/** Health (ojs-http-binding.md §8.1) and the conformance manifest (§21). */
@RestController
public class OjsSystemController {

	private final OjsJobs jobs;

	private final String backend;

	private final Manifest manifest;

	private final Instant startedAt = Instant.now();

	/**
	 * @param jobs the stored jobs, whose table health probes
	 * @param backend the backend type shown by health and the manifest, e.g. {@code postgresql}
	 */
	public OjsSystemController(OjsJobs jobs, String backend, Manifest manifest) {
		this.jobs = jobs;
		this.backend = backend;
		this.manifest = manifest;
	}

	/** §8.1: {@code 200 ok} while the job table can be read, {@code 503 degraded} otherwise. */
	@GetMapping(OjsHttp.BASE_PATH + "/health")
	ResponseEntity<Map<String, Object>> health() {
		Map<String, Object> backend = new LinkedHashMap<>();
		backend.put("type", this.backend);
		long started = System.nanoTime();
		boolean up;
		try {
			this.jobs.checkAvailable();
			backend.put("status", "connected");
			backend.put("latency_ms", Duration.ofNanos(System.nanoTime() - started).toMillis());
			up = true;
		}
		catch (RuntimeException ex) {
			backend.put("status", "disconnected");
			backend.put("error", ex.getClass().getSimpleName());
			up = false;
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", up ? "ok" : "degraded");
		body.put("version", OjsHttp.VERSION);
		body.put("uptime_seconds", Duration.between(this.startedAt, Instant.now()).toSeconds());
		body.put("backend", backend);
		return ResponseEntity.status(up ? 200 : 503).body(body);
	}

	/** §21.1, spec README decision 10. */
	@GetMapping(OjsHttp.MANIFEST_PATH)
	Map<String, Object> manifest() {
		return this.manifest.toJson(this.backend);
	}

}
