package dev.ojs.bench.scenario;

import dev.ojs.bench.ScenarioResult;

/**
 * One benchmark scenario. A run prints its table to the environment's output and returns
 * its figures; the runner prints the {@code RESULT} line.
 */
public interface Scenario {

	String name();

	ScenarioResult run(BenchEnvironment environment) throws Exception;

	/**
	 * The scenario of a name.
	 * @param name one of {@link dev.ojs.bench.BenchmarkOptions#ALL}
	 * @return the scenario
	 */
	static Scenario named(String name) {
		return switch (name) {
			case "enqueue-single" -> new EnqueueScenario(false);
			case "enqueue-batch" -> new EnqueueScenario(true);
			case "drain" -> new DrainScenario(false);
			case "retry" -> new DrainScenario(true);
			case "steady" -> new SteadyStateScenario();
			case "idle" -> new IdleLatencyScenario();
			case "long-jobs" -> new LongJobsScenario();
			case "backlog" -> new BacklogScenario();
			case "cron" -> new CronScenario();
			case "admin" -> new AdminScenario();
			case "http" -> new HttpScenario();
			case "limit" -> new LimitScenario();
			case "soak" -> new SoakScenario();
			case "limited" -> new LimitedQueueScenario();
			case "workflow" -> new WorkflowScenario();
			default -> throw new IllegalArgumentException("Unknown scenario " + name);
		};
	}

}
