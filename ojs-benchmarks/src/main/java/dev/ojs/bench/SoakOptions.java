package dev.ojs.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of the {@code soak} scenario: load offered for a long time at a fraction of the
 * warm drain rate, with completed jobs kept for a retention period, sampled every interval.
 *
 * @param fraction the share of the drain rate offered
 * @param drainRate the warm drain rate in jobs/s; 0 = taken from a {@code drain} earlier in the
 * same run, else measured by the soak node before the load starts
 * @param probeJobs jobs of each of the two drains that measure the rate (the first one warms up)
 * @param duration how long the load is offered
 * @param retention how long the worker keeps completed jobs
 * @param interval how often a sample is taken
 * @param outputDirectory where the CSV and the SVG plot go
 */
public record SoakOptions(double fraction, int drainRate, int probeJobs, Duration duration, Duration retention,
		Duration interval, Path outputDirectory) {

	static SoakOptions parse(CommandLine line, boolean smoke) {
		String fraction = line.string("soak-fraction", "0.6");
		SoakOptions options;
		try {
			options = new SoakOptions(Double.parseDouble(fraction), line.integer("soak-drain-rate", 0),
					line.integer("soak-probe-jobs", smoke ? 1_000 : 50_000),
					line.duration("soak-duration", smoke ? Duration.ofSeconds(10) : Duration.ofMinutes(30)),
					line.duration("soak-retention", Duration.ofMinutes(10)),
					line.duration("soak-interval", smoke ? Duration.ofSeconds(2) : Duration.ofMinutes(1)),
					Path.of(line.string("output-dir", "bench-results")));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--soak-fraction must be a number such as 0.6 but was '" + fraction + "'");
		}
		if (!(options.fraction() > 0 && options.fraction() <= 10)) {
			throw new IllegalArgumentException("--soak-fraction must be above 0 (and at most 10) but was " + fraction);
		}
		if (options.drainRate() < 0 || options.probeJobs() <= 0) {
			throw new IllegalArgumentException("--soak-drain-rate must not be negative, --soak-probe-jobs must be positive");
		}
		if (options.interval().toMillis() <= 0 || options.duration().compareTo(options.interval()) < 0) {
			throw new IllegalArgumentException("--soak-interval must be positive and at most --soak-duration");
		}
		return options;
	}

	/** The rate offered, jobs/s, for a warm drain rate. */
	public int offeredRate(double warmDrainRate) {
		return (int) Math.max(1, Math.round(warmDrainRate * this.fraction));
	}

}
