package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;


import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WorkflowOptions;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowStore;

/**
 * Workflows at scale, on a node that runs the worker: a batch of {@code --workflow-batch} no-op
 * jobs created in one call, until its {@code on_complete} callback runs (which must run exactly
 * once); a chain of {@code --workflow-chain} steps, step to step; then the CPU of workflow steps
 * against plain jobs ({@link WorkflowCpu}).
 */
final class WorkflowScenario implements Scenario {

	@Override
	public String name() {
		return "workflow";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		WorkflowOptions workflow = options.workflow();
		BatchRun batch = batch(environment, workflow.batch());
		new ResultTable("workflow: a batch of " + workflow.batch() + " no-op jobs created in one call, one on_complete"
				+ " callback; one node, concurrency " + options.concurrency(), "jobs", "create s", "created jobs/s", "steps done s", "callback after last step ms",
				"callback after create s", "callbacks", "state")
			.row(workflow.batch(), batch.createSeconds(), workflow.batch() / batch.createSeconds(), batch.stepsSeconds(), batch.callbackAfterLastStepMillis(),
					batch.callbackSeconds(), batch.callbacks(), batch.state())
			.print(environment.out());
		environment.out().println("callbacks: " + batch.callbacks());
		ChainRun chain = chain(environment, workflow.chain());
		LatencySummary gaps = chain.gaps();
		new ResultTable("workflow: a chain of " + workflow.chain() + " no-op steps; step to step = one step's handler"
				+ " start to the next one's; poll interval " + options.pollInterval(), "steps", "create ms", "total s",
				"ms per step", "step to step p50 ms", "p99 ms", "max ms", "gaps ≥ half the poll interval")
			.row(workflow.chain(), chain.createMillis(), chain.totalSeconds(), chain.totalSeconds() * 1000 / workflow.chain(),
					gaps.p50(), gaps.p99(), gaps.max(), chain.slowGaps())
			.print(environment.out());
		environment.out().println("what wakes the next step: the completion's transaction makes it available and, after"
				+ " the commit, wakes this node's worker at once (other nodes by NOTIFY on PostgreSQL, else their poll"
				+ " every " + options.pollInterval() + "); " + chain.slowGaps() + " of " + (workflow.chain() - 1)
				+ " steps waited half the poll interval or more");
		WorkflowCpu.Figures cpu = WorkflowCpu.measure(environment);
		ScenarioResult result = new ScenarioResult(name(), workflow.batch(), batch.callbackSeconds(), gaps)
			.with("batch_jobs", workflow.batch())
			.with("batch_create_s", batch.createSeconds())
			.with("batch_steps_done_s", batch.stepsSeconds())
			.with("callback_after_last_step_ms", batch.callbackAfterLastStepMillis())
			.with("callback_after_create_s", batch.callbackSeconds())
			.with("callbacks", batch.callbacks())
			.with("chain_steps", workflow.chain())
			.with("chain_total_s", chain.totalSeconds())
			.with("chain_ms_per_step", chain.totalSeconds() * 1000 / workflow.chain())
			.with("chain_slow_gaps", chain.slowGaps());
		return cpu.addTo(result);
	}

	/**
	 * A batch run.
	 * @param createSeconds the create call
	 * @param stepsSeconds from the call's return until the last job completed
	 * @param callbackAfterLastStepMillis from the last job's completion until the callback started
	 * @param callbackSeconds from the call's return until the callback started
	 * @param callbacks executions of the callback
	 * @param state the workflow's state at the end
	 */
	record BatchRun(double createSeconds, double stepsSeconds, double callbackAfterLastStepMillis,
			double callbackSeconds, long callbacks, WorkflowState state) {

	}

	/**
	 * A chain run.
	 * @param createMillis the create call
	 * @param totalSeconds from the call's return until the last step completed
	 * @param gaps each step's start to the next one's
	 * @param slowGaps gaps of half the poll interval or more
	 */
	record ChainRun(double createMillis, double totalSeconds, LatencySummary gaps, int slowGaps) {

	}

	private BatchRun batch(BenchEnvironment environment, int size) throws Exception {
		Duration timeout = environment.options().timeout();
		BenchEnvironment.Node node = environment.start(environment.newPrefix(), true, Map.of());
		WorkflowProbe probe = node.context().getBean(WorkflowProbe.class);
		List<OjsTemplate.Enqueue> jobs = new ArrayList<>(size);
		List<Long> args = List.of(LatencyRecorder.nowMicros());
		for (int i = 0; i < size; i++) {
			jobs.add(new OjsTemplate.Enqueue(BenchJobs.NOOP, args, JobOptions.none()));
		}
		long start = System.nanoTime();
		String id = node.context().getBean(OjsWorkflows.class).batch("bench-batch", jobs)
			.onComplete(new OjsTemplate.Enqueue(WorkflowJobs.CALLBACK, List.of(), JobOptions.none()))
			.enqueue();
		long created = System.nanoTime();
		node.probe().await(probe::callbacks, 1, timeout, "the batch's callback");
		// the callback's completion ends the batch
		WorkflowStore store = node.context().getBean(WorkflowStore.class);
		WorkflowState state = awaitEnded(store, id, timeout);
		long callbackStart = probe.firstCallbackNanos();
		long lastStep = probe.lastStepCompletedNanos();
		// a graceful stop: a second execution of the callback, had there been one, has run by now
		environment.stop(node);
		long callbacks = probe.callbacks();
		if (callbacks != 1 || state != WorkflowState.COMPLETED) {
			throw new IllegalStateException(
					"The batch's callback ran " + callbacks + " times (exactly once expected); the batch is " + state);
		}
		return new BatchRun((created - start) / 1e9, (lastStep - created) / 1e9, (callbackStart - lastStep) / 1e6,
				(callbackStart - created) / 1e9, callbacks, state);
	}

	private ChainRun chain(BenchEnvironment environment, int steps) {
		Duration timeout = environment.options().timeout();
		BenchEnvironment.Node node = environment.start(environment.newPrefix(), true, Map.of());
		WorkflowProbe probe = node.context().getBean(WorkflowProbe.class);
		OjsWorkflows workflows = node.context().getBean(OjsWorkflows.class);
		List<OjsTemplate.Enqueue> chain = new ArrayList<>(steps);
		for (int i = 0; i < steps; i++) {
			chain.add(new OjsTemplate.Enqueue(WorkflowJobs.CHAIN_STEP, List.of(i), JobOptions.none()));
		}
		long start = System.nanoTime();
		String id = workflows.chain("bench-chain", chain);
		long created = System.nanoTime();
		node.probe().await(node.probe()::completed, steps, timeout, "the chain's steps");
		long end = probe.lastStepCompletedNanos();
		WorkflowState state = awaitEnded(node.context().getBean(WorkflowStore.class), id, timeout);
		environment.stop(node);
		if (state != WorkflowState.COMPLETED) {
			throw new IllegalStateException("The chain ended " + state);
		}
		long[] gaps = new long[steps - 1];
		long halfPoll = environment.options().pollInterval().toNanos() / 2;
		int slow = 0;
		for (int i = 1; i < steps; i++) {
			long gap = probe.stepStart(i) - probe.stepStart(i - 1);
			gaps[i - 1] = gap / 1_000;
			slow += (gap >= halfPoll) ? 1 : 0;
		}
		return new ChainRun((created - start) / 1e6, (end - created) / 1e9, LatencySummary.ofMicros(gaps), slow);
	}

	/** Waits until the workflow has ended; its state then. */
	static WorkflowState awaitEnded(WorkflowStore store, String id, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			WorkflowState state = store.find(id).map(Workflow::state).orElseThrow();
			if (state.isTerminal()) {
				return state;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Timed out after " + timeout + " waiting for workflow " + id + " to end");
			}
			LockSupport.parkNanos(1_000_000);
		}
	}

}
