package dev.ojs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Where CPU time goes during a measurement, read from Linux's {@code /proc}: this JVM, the
 * database server's processes (all {@code postgres} ones, or {@code mariadbd}/{@code mysqld};
 * "postgres" in the figures' names), and the whole machine. Each figure is in percent of one core
 * (a saturated 2-core machine shows 200%). The database's figure is summed process by process:
 * a process that exits during the window is not counted (never subtracted), one that starts in it
 * counts from its start; the connection pool keeps PostgreSQL's backends alive across a
 * measurement.
 * Elsewhere than Linux every figure is {@code NaN}.
 */
public final class CpuUsage {

	private static final Path PROC = Path.of("/proc");

	/** Process names of the database servers: only the one under test is busy. */
	private static final Set<String> SERVERS = Set.of("postgres", "mariadbd", "mysqld");

	private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

	private final long wallNanos;

	private final long javaNanos;

	/** CPU ticks of each database server process, by process id. */
	private final @Nullable Map<String, Double> postgresTicks;

	private final double machineBusyTicks;

	private CpuUsage(long wallNanos, long javaNanos, @Nullable Map<String, Double> postgresTicks,
			double machineBusyTicks) {
		this.wallNanos = wallNanos;
		this.javaNanos = javaNanos;
		this.postgresTicks = postgresTicks;
		this.machineBusyTicks = machineBusyTicks;
	}

	/** A reading now. */
	public static CpuUsage now() {
		long java = (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)
				? os.getProcessCpuTime() : -1;
		return new CpuUsage(System.nanoTime(), java, postgresTicks(), machineBusyTicks());
	}

	/**
	 * The usage between an earlier reading and now.
	 * @param since the earlier reading
	 * @return java, postgres and machine CPU in percent of one core
	 */
	public Split since(CpuUsage since) {
		double seconds = (this.wallNanos - since.wallNanos) / 1e9;
		double java = (this.javaNanos < 0) ? Double.NaN : (this.javaNanos - since.javaNanos) / 1e9 / seconds * 100;
		double postgres = ticksSince(since.postgresTicks, this.postgresTicks) / TICKS_PER_SECOND / seconds * 100;
		double machine = (this.machineBusyTicks - since.machineBusyTicks) / TICKS_PER_SECOND / seconds * 100;
		return new Split(java, postgres, machine, seconds);
	}

	/**
	 * CPU use over a window, each in percent of one core.
	 *
	 * @param java this JVM
	 * @param postgres every PostgreSQL process (including other clients' backends)
	 * @param machine every process on the machine
	 * @param seconds the window's wall-clock length
	 */
	public record Split(double java, double postgres, double machine, double seconds) {

		/** This JVM's CPU time in the window divided by {@code jobs}, in microseconds. */
		public double javaMicrosPer(long jobs) {
			return microsPer(this.java, jobs);
		}

		/** PostgreSQL's CPU time in the window divided by {@code jobs}, in microseconds. */
		public double postgresMicrosPer(long jobs) {
			return microsPer(this.postgres, jobs);
		}

		private double microsPer(double percent, long jobs) {
			return (jobs > 0) ? percent / 100 * this.seconds * 1e6 / jobs : Double.NaN;
		}

	}

	/**
	 * Ticks between two readings of processes' ticks: each process's ticks since the earlier
	 * reading, all of them for a process that started since; a process gone by the later
	 * reading counts nothing. {@code NaN} when either reading is missing.
	 */
	static double ticksSince(@Nullable Map<String, Double> before, @Nullable Map<String, Double> now) {
		if (before == null || now == null) {
			return Double.NaN;
		}
		double ticks = 0;
		for (Map.Entry<String, Double> process : now.entrySet()) {
			ticks += Math.max(0, process.getValue() - before.getOrDefault(process.getKey(), 0.0));
		}
		return ticks;
	}

	private static @Nullable Map<String, Double> postgresTicks() {
		if (!Files.isDirectory(PROC)) {
			return null;
		}
		Map<String, Double> ticks = new HashMap<>();
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
			for (Path process : processes) {
				double used = postgresTicks(process);
				if (used > 0) {
					ticks.put(process.getFileName().toString(), used);
				}
			}
		}
		catch (IOException ex) {
			return null;
		}
		return ticks;
	}

	private static double postgresTicks(Path process) {
		try {
			String stat = Files.readString(process.resolve("stat"));
			int open = stat.indexOf('(');
			int close = stat.lastIndexOf(')');
			if (open < 0 || close < 0 || !SERVERS.contains(stat.substring(open + 1, close))) {
				return 0;
			}
			// fields after the command: state(3) ... utime(14) stime(15), counted from 1
			String[] fields = stat.substring(close + 2).split(" ");
			return Double.parseDouble(fields[11]) + Double.parseDouble(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			return 0; // exited meanwhile
		}
	}

	/** Busy ticks of all CPUs: user + nice + system + irq + softirq + steal, from /proc/stat. */
	private static double machineBusyTicks() {
		try {
			List<String> lines = Files.readAllLines(PROC.resolve("stat"));
			String[] fields = lines.get(0).trim().split("\\s+");
			return Double.parseDouble(fields[1]) + Double.parseDouble(fields[2]) + Double.parseDouble(fields[3])
					+ Double.parseDouble(fields[6]) + Double.parseDouble(fields[7]) + Double.parseDouble(fields[8]);
		}
		catch (IOException | RuntimeException ex) {
			return Double.NaN;
		}
	}

}
