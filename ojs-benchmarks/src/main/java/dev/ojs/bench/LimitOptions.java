package dev.ojs.bench;

import java.time.Duration;

/**
 * Options of the {@code limit} scenario: the database's own limit for job-shaped rows, plain
 * JDBC from this JVM with no engine in the way.
 *
 * @param clients connections cycling at once
 * @param batch rows each cycle inserts, claims and completes
 * @param duration measured time of each variant (rows kept, rows deleted)
 * @param withLimit whether {@code limit} runs first even when {@code --scenario} does not name it,
 * so that every throughput figure is also printed as a fraction of it
 */
public record LimitOptions(int clients, int batch, Duration duration, boolean withLimit) {

	static LimitOptions parse(CommandLine line, boolean smoke) {
		LimitOptions options = new LimitOptions(line.integer("limit-clients", 8), line.integer("limit-batch", 100),
				line.duration("limit-duration", smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(15)),
				line.flag("with-limit", false));
		if (options.clients() <= 0 || options.batch() <= 0 || options.duration().isZero()
				|| options.duration().isNegative()) {
			throw new IllegalArgumentException("--limit-clients, --limit-batch and --limit-duration must be positive");
		}
		return options;
	}

}
