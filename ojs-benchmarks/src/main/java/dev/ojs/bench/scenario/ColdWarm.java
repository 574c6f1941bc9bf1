package dev.ojs.bench.scenario;

import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;

/**
 * A drain split in two: its first jobs, run while the worker's code is still interpreted or
 * being compiled (cold, from a fresh JVM), and the rest (warm).
 *
 * @param coldJobs jobs completed in the cold part
 * @param coldSeconds from the first handler start until the last cold completion
 * @param coldCpu CPU use from the worker's start until then
 * @param warmJobs jobs completed after
 * @param warmSeconds the warm part's time
 * @param warmCpu CPU use in the warm part
 */
record ColdWarm(long coldJobs, double coldSeconds, CpuUsage.Split coldCpu, long warmJobs, double warmSeconds,
		CpuUsage.Split warmCpu) {

	double coldRate() {
		return rate(this.coldJobs, this.coldSeconds);
	}

	double warmRate() {
		return rate(this.warmJobs, this.warmSeconds);
	}

	/** The result with {@code cold_jobs_per_sec}, {@code warm_jobs_per_sec} and JVM CPU per job of each. */
	ScenarioResult addTo(ScenarioResult result) {
		return result.with("cold_jobs", this.coldJobs)
			.with("cold_jobs_per_sec", coldRate())
			.with("warm_jobs_per_sec", warmRate())
			.with("cold_java_us_per_job", this.coldCpu.javaMicrosPer(this.coldJobs))
			.with("warm_java_us_per_job", this.warmCpu.javaMicrosPer(this.warmJobs));
	}

	ResultTable table(String title) {
		return new ResultTable(title, "part", "jobs", "seconds", "jobs/s", "java µs/job", "pg µs/job")
			.row("cold", this.coldJobs, this.coldSeconds, coldRate(), this.coldCpu.javaMicrosPer(this.coldJobs),
					this.coldCpu.postgresMicrosPer(this.coldJobs))
			.row("warm", this.warmJobs, this.warmSeconds, warmRate(), this.warmCpu.javaMicrosPer(this.warmJobs),
					this.warmCpu.postgresMicrosPer(this.warmJobs));
	}

	static double rate(long jobs, double seconds) {
		return (jobs > 0 && seconds > 0) ? jobs / seconds : Double.NaN;
	}

}
