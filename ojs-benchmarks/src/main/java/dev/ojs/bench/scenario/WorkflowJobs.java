package dev.ojs.bench.scenario;

import dev.ojs.spring.OjsJob;

/**
 * The workflow scenario's handlers: a batch callback that counts its executions, and a chain
 * step that records when it starts. The jobs of batches and groups are {@link BenchJobs#NOOP},
 * the handler plain jobs run.
 */
public class WorkflowJobs {

	/** A batch callback: counts how often it runs. */
	public static final String CALLBACK = "bench.workflow_callback";

	/** A chain step: records its start by its index. */
	public static final String CHAIN_STEP = "bench.chain_step";

	private final WorkflowProbe probe;

	public WorkflowJobs(WorkflowProbe probe) {
		this.probe = probe;
	}

	@OjsJob(type = CALLBACK)
	public void callback() {
		this.probe.callback();
	}

	@OjsJob(type = CHAIN_STEP)
	public void step(int index) {
		this.probe.stepStarted(index);
	}

}
