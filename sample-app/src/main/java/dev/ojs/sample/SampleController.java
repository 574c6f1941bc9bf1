package dev.ojs.sample;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.spring.JobInfo;
import dev.ojs.spring.OjsTemplate;

/**
 * {@code POST /jobs/{scenario}} enqueues a scenario, {@code POST /jobs} all of them, and
 * {@code GET /jobs/{id}} shows a job.
 */
@RestController
@RequestMapping("/jobs")
public class SampleController {

	private final SampleScenarios scenarios;

	private final OjsTemplate template;

	public SampleController(SampleScenarios scenarios, OjsTemplate template) {
		this.scenarios = scenarios;
		this.template = template;
	}

	@PostMapping
	public Map<String, String> enqueueAll() {
		return this.scenarios.enqueueAll();
	}

	@PostMapping("/{scenario}")
	public Map<String, String> enqueue(@PathVariable String scenario) {
		return Map.of("id", this.scenarios.enqueue(scenario));
	}

	@GetMapping("/{id}")
	public ResponseEntity<JobInfo> job(@PathVariable String id) {
		return ResponseEntity.of(this.template.getJob(id));
	}

	@ExceptionHandler(IllegalArgumentException.class)
	public ResponseEntity<Map<String, String>> unknownScenario(IllegalArgumentException ex) {
		return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", ex.getMessage()));
	}

}
