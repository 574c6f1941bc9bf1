package dev.ojs.sample;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import dev.ojs.spring.OjsTemplate;

/**
 * Enqueues one job per demonstrated behaviour.
 */
@Component
public class SampleScenarios {

	/** Scenario name to what it demonstrates. */
	public static final Map<String, String> DESCRIPTIONS = Map.of("welcome", "succeeds at once", "flaky",
			"fails twice, then succeeds", "charge", "non-retryable error type, dead-lettered at once", "import",
			"handler answers DEAD_LETTER", "sync", "exhausts 3 attempts into the dead letter queue");

	private final OjsTemplate template;

	public SampleScenarios(OjsTemplate template) {
		this.template = template;
	}

	/** Enqueues every scenario; returns scenario name to job id. */
	public Map<String, String> enqueueAll() {
		Map<String, String> ids = new LinkedHashMap<>();
		for (String scenario : List.of("welcome", "flaky", "charge", "import", "sync")) {
			ids.put(scenario, enqueue(scenario));
		}
		return ids;
	}

	/**
	 * Enqueues one scenario.
	 * @throws IllegalArgumentException for an unknown scenario
	 */
	public String enqueue(String scenario) {
		return switch (scenario) {
			case "welcome" -> this.template.enqueue("sample.welcome", new SampleJobs.Welcome("ada@example.com", "Ada"));
			case "flaky" -> this.template.enqueue("sample.flaky", 3);
			case "charge" -> this.template.enqueue("sample.charge", "cus_42", new BigDecimal("19.99"));
			case "import" -> this.template.enqueue("sample.import", "orders-2024-05.csv");
			case "sync" -> this.template.enqueue("sample.sync", "acme");
			default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "', try one of "
					+ DESCRIPTIONS.keySet());
		};
	}

}
