package dev.ojs.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WalUsage;
import dev.ojs.bench.WorkflowOptions;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.workflow.WorkflowRole;

/**
 * The CPU of a workflow step against a plain job's: {@code --workflow-jobs} no-op jobs (the
 * same handler each time) are created by an enqueue-only node, plain, in groups, in batches
 * with an {@code on_complete} callback, and in chains; a worker node then runs them, as the
 * drain does. The JVM's and the database's CPU from the first handler start until the last
 * completion, divided by the jobs (a batch's callbacks are charged to its jobs), and the WAL
 * written from the worker's start. Plain jobs run
 * first and again last, and the lower of the two is the baseline, so that neither a cold JVM
 * nor the order favours the workflows.
 */
final class WorkflowCpu {

	private enum Variant {

		PLAIN, GROUP, BATCH, CHAIN, PLAIN_AGAIN

	}

	private WorkflowCpu() {
	}

	/**
	 * One variant's figures.
	 * @param createSeconds the enqueue-only node's time to create the jobs
	 * @param seconds first handler start to last completion
	 * @param javaMicros JVM CPU per job while running
	 * @param dbMicros database CPU per job while running
	 * @param walBytes WAL (InnoDB redo) bytes per job from the worker's start to the last
	 * completion, {@code -1} when it cannot be read: the rows written, without the CPU's noise
	 */
	record Run(double createSeconds, double seconds, double javaMicros, double dbMicros, double walBytes) {

		double totalMicros() {
			return this.javaMicros + this.dbMicros;
		}

	}

	/**
	 * The variants' runs and the plain baseline.
	 * @param runs each variant's run, in {@link Variant} order
	 */
	record Figures(List<Run> runs) {

		Run baseline() {
			Run first = this.runs.get(Variant.PLAIN.ordinal());
			Run last = this.runs.get(Variant.PLAIN_AGAIN.ordinal());
			return (first.totalMicros() <= last.totalMicros()) ? first : last;
		}

		double ratio(Variant variant) {
			return this.runs.get(variant.ordinal()).totalMicros() / baseline().totalMicros();
		}

		/** The highest ratio of a workflow variant to the baseline. */
		double worstRatio() {
			return Math.max(ratio(Variant.GROUP), Math.max(ratio(Variant.BATCH), ratio(Variant.CHAIN)));
		}

		ScenarioResult addTo(ScenarioResult result) {
			Run plain = baseline();
			ScenarioResult more = result.with("plain_java_us_per_job", plain.javaMicros())
				.with("plain_db_us_per_job", plain.dbMicros())
				.with("plain_wal_bytes_per_job", plain.walBytes());
			for (Variant variant : List.of(Variant.GROUP, Variant.BATCH, Variant.CHAIN)) {
				Run run = this.runs.get(variant.ordinal());
				String key = variant.name().toLowerCase(java.util.Locale.ROOT);
				more = more.with(key + "_java_us_per_step", run.javaMicros())
					.with(key + "_db_us_per_step", run.dbMicros())
					.with(key + "_cpu_ratio", ratio(variant))
					.with(key + "_wal_bytes_per_step", run.walBytes());
			}
			return more.with("cpu_ratio_max", worstRatio());
		}

	}

	static Figures measure(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		WorkflowOptions workflow = options.workflow();
		List<Run> runs = new ArrayList<>();
		for (Variant variant : Variant.values()) {
			runs.add(run(environment, variant));
		}
		Figures figures = new Figures(runs);
		ResultTable printed = new ResultTable("workflow: CPU of " + workflow.jobs() + " no-op jobs, plain and as"
				+ " workflow steps, run by one worker node at concurrency " + options.concurrency() + "; ratio = (java"
				+ " + db µs per job) ÷ the lower plain run's (target ≤ 1.5)", "jobs", "as", "create s", "run s", "jobs/s",
				"java µs/job", "db µs/job", "ratio", "WAL B/job");
		for (Variant variant : Variant.values()) {
			Run run = runs.get(variant.ordinal());
			printed.row(workflow.jobs(), label(variant, workflow), run.createSeconds(), run.seconds(),
					workflow.jobs() / run.seconds(), run.javaMicros(), run.dbMicros(), figures.ratio(variant),
					run.walBytes());
		}
		printed.print(environment.out());
		return figures;
	}

	private static String label(Variant variant, WorkflowOptions workflow) {
		return switch (variant) {
			case PLAIN -> "plain jobs";
			case GROUP -> "groups of " + workflow.groupSize();
			case BATCH -> "batches of " + workflow.groupSize() + " + callback";
			case CHAIN -> "chains of " + workflow.chainLength();
			case PLAIN_AGAIN -> "plain jobs, again";
		};
	}

	private static Run run(BenchEnvironment environment, Variant variant) throws Exception {
		BenchmarkOptions options = environment.options();
		WorkflowOptions workflow = options.workflow();
		int jobs = workflow.jobs();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node producer = environment.start(prefix, false, Map.of());
		long start = System.nanoTime();
		int callbacks = create(producer, variant, workflow, environment);
		double createSeconds = (System.nanoTime() - start) / 1e9;
		environment.stop(producer);
		environment.checkpoint();
		WalUsage walStart = environment.walUsage();
		BenchEnvironment.Node worker = environment.restart(prefix, true);
		JobProbe probe = worker.probe();
		long end = probe.await(probe::completed, jobs + callbacks, options.timeout(), "completions");
		CpuUsage cpuEnd = CpuUsage.now();
		CpuUsage.Split cpu = cpuEnd.since(probe.firstStartCpu());
		double seconds = (end - probe.firstStartNanos()) / 1e9;
		WalUsage wal = WalUsage.between(walStart, environment.walUsage());
		environment.stop(worker);
		environment.drop(prefix);
		return new Run(createSeconds, seconds, cpu.javaMicrosPer(jobs), cpu.postgresMicrosPer(jobs),
				(wal != null) ? (double) wal.walBytes() / jobs : -1);
	}

	/** Creates the variant's jobs; returns how many callbacks come with them. */
	private static int create(BenchEnvironment.Node node, Variant variant, WorkflowOptions workflow,
			BenchEnvironment environment) throws Exception {
		int jobs = workflow.jobs();
		if (variant == Variant.PLAIN || variant == Variant.PLAIN_AGAIN) {
			Preloader.enqueue(node.template(), BenchJobs.NOOP, jobs, JobOptions.none(), environment.out());
			return 0;
		}
		OjsWorkflows workflows = node.context().getBean(OjsWorkflows.class);
		int size = (variant == Variant.CHAIN) ? workflow.chainLength() : workflow.groupSize();
		OjsTemplate.Enqueue callback = new OjsTemplate.Enqueue(WorkflowJobs.CALLBACK, List.of(), JobOptions.none());
		Batches.run(2, jobs, size, (from, count) -> {
			List<Long> args = List.of(LatencyRecorder.nowMicros());
			List<OjsTemplate.Enqueue> steps = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				steps.add(new OjsTemplate.Enqueue(BenchJobs.NOOP, args, JobOptions.none()));
			}
			switch (variant) {
				case GROUP -> workflows.group("bench-group", steps);
				case BATCH -> workflows.batch("bench-batch", steps, Map.of(WorkflowRole.ON_COMPLETE, callback));
				default -> workflows.chain("bench-chain", steps);
			}
		});
		return (variant == Variant.BATCH) ? (jobs + size - 1) / size : 0;
	}

}
