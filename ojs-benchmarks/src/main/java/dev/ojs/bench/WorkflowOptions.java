package dev.ojs.bench;

/**
 * Options of the {@code workflow} scenario (workflows at scale): one large batch with a
 * callback, one long chain, and the CPU of workflow steps against plain jobs.
 *
 * @param batch jobs of the batch created in one call, whose {@code on_complete} callback must run once
 * @param chain steps of the chain
 * @param jobs jobs of each CPU variant: plain, in groups, in batches with a callback, in chains
 * @param groupSize jobs per group and per batch of the CPU variants
 * @param chainLength steps per chain of the CPU variant
 */
public record WorkflowOptions(int batch, int chain, int jobs, int groupSize, int chainLength) {

	/** Most chain steps: the Java API's limit of steps per workflow. */
	static final int MAX_CHAIN = 1000;

	static WorkflowOptions parse(CommandLine line, boolean smoke) {
		WorkflowOptions options = new WorkflowOptions(line.integer("workflow-batch", smoke ? 200 : 10_000),
				line.integer("workflow-chain", smoke ? 10 : 100), line.integer("workflow-jobs", smoke ? 400 : 20_000),
				line.integer("workflow-group-size", smoke ? 20 : 100),
				line.integer("workflow-chain-length", smoke ? 5 : 10));
		if (options.batch() <= 0 || options.jobs() <= 0 || options.groupSize() <= 0) {
			throw new IllegalArgumentException("--workflow-batch, --workflow-jobs and --workflow-group-size must be positive");
		}
		if (options.chain() < 2 || options.chain() > MAX_CHAIN || options.chainLength() < 2
				|| options.chainLength() > MAX_CHAIN) {
			throw new IllegalArgumentException(
					"--workflow-chain and --workflow-chain-length must be 2 to " + MAX_CHAIN + " steps");
		}
		if (options.groupSize() > MAX_CHAIN) {
			throw new IllegalArgumentException("--workflow-group-size must be at most " + MAX_CHAIN);
		}
		return options;
	}

}
