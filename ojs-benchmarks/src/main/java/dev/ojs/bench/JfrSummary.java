package dev.ojs.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.jspecify.annotations.Nullable;

/**
 * Summarises a JFR recording of a benchmark run (async-profiler is not available here):
 * CPU samples ({@code jdk.ExecutionSample}) by thread group, by component of the top-most
 * non-JDK frame, the hottest methods (self) and the hottest OJS methods (inclusive); and
 * samples of threads in native code ({@code jdk.NativeMethodSample}, mostly waiting for
 * PostgreSQL on a socket) by thread group.
 * <pre>
 * java -XX:StartFlightRecording=filename=drain.jfr,settings=profile -jar ojs-benchmarks.jar --scenario=drain
 * java -jar ojs-benchmarks.jar --jfr-summary=drain.jfr [--jfr-threads=ojs-]
 * </pre>
 */
public final class JfrSummary {

	private static final int TOP = 15;

	private static final Map<String, String> COMPONENTS = new LinkedHashMap<>();

	static {
		COMPONENTS.put("org.postgresql.", "PostgreSQL JDBC driver");
		COMPONENTS.put("com.zaxxer.hikari.", "HikariCP");
		COMPONENTS.put("tools.jackson.", "Jackson");
		COMPONENTS.put("com.fasterxml.jackson.", "Jackson");
		COMPONENTS.put("org.springframework.jdbc.", "Spring JDBC");
		COMPONENTS.put("org.springframework.", "Spring (other)");
		COMPONENTS.put("dev.ojs.jdbc.", "OJS store (dev.ojs.jdbc)");
		COMPONENTS.put("dev.ojs.worker.", "OJS worker (dev.ojs.worker)");
		COMPONENTS.put("dev.ojs.retry.", "OJS retry core");
		COMPONENTS.put("dev.ojs.spring.", "OJS Spring layer");
		COMPONENTS.put("dev.ojs.job.", "OJS job model");
		COMPONENTS.put("dev.ojs.bench.", "benchmark harness");
	}

	private JfrSummary() {
	}

	public static void main(String[] args) throws IOException {
		print(Path.of(args[0]), (args.length > 1) ? args[1] : "", System.out);
	}

	/**
	 * Prints the summary of a recording.
	 * @param recording the JFR file
	 * @param threadPrefix only samples of threads whose name starts with this ("" for all),
	 * e.g. {@code ojs-} for the worker's threads
	 * @param out where to print
	 */
	public static void print(Path recording, String threadPrefix, PrintStream out) throws IOException {
		Map<String, Long> cpuByThread = new HashMap<>();
		Map<String, Long> cpuByComponent = new HashMap<>();
		Map<String, Long> selfByMethod = new HashMap<>();
		Map<String, Long> inclusiveOjs = new HashMap<>();
		Map<String, Long> nativeByThread = new HashMap<>();
		Map<String, Long> nativeTopByThread = new HashMap<>();
		long cpuSamples = 0;
		long nativeSamples = 0;
		for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
			String name = event.getEventType().getName();
			boolean cpu = name.equals("jdk.ExecutionSample");
			if (!cpu && !name.equals("jdk.NativeMethodSample")) {
				continue;
			}
			RecordedThread thread = event.getThread("sampledThread");
			String threadName = (thread != null && thread.getJavaName() != null) ? thread.getJavaName() : "";
			if (!threadName.startsWith(threadPrefix)) {
				continue;
			}
			String group = threadGroup((thread != null) ? thread.getJavaName() : null);
			RecordedStackTrace stack = event.getStackTrace();
			List<RecordedFrame> frames = (stack != null) ? stack.getFrames() : List.of();
			if (cpu) {
				cpuSamples++;
				cpuByThread.merge(group, 1L, Long::sum);
				cpuByComponent.merge(component(frames), 1L, Long::sum);
				if (!frames.isEmpty()) {
					selfByMethod.merge(method(frames.get(0)), 1L, Long::sum);
				}
				Set<String> seen = new HashSet<>();
				for (RecordedFrame frame : frames) {
					String method = method(frame);
					if (method.startsWith("dev.ojs.") && !method.startsWith("dev.ojs.bench.") && seen.add(method)) {
						inclusiveOjs.merge(method, 1L, Long::sum);
					}
				}
			}
			else {
				nativeSamples++;
				nativeByThread.merge(group, 1L, Long::sum);
				nativeTopByThread.merge(group + " in " + firstNonJdk(frames), 1L, Long::sum);
			}
		}
		out.printf("CPU samples (jdk.ExecutionSample): %,d%n", cpuSamples);
		table(out, "by thread", cpuByThread, cpuSamples);
		table(out, "by component (top-most non-JDK frame)", cpuByComponent, cpuSamples);
		table(out, "hottest methods (self)", selfByMethod, cpuSamples);
		table(out, "hottest OJS methods (inclusive)", inclusiveOjs, cpuSamples);
		out.printf("%nNative samples (jdk.NativeMethodSample, e.g. waiting on a socket): %,d%n", nativeSamples);
		table(out, "by thread", nativeByThread, nativeSamples);
		table(out, "by thread and caller", nativeTopByThread, nativeSamples);
	}

	static String threadGroup(@Nullable String thread) {
		if (thread == null) {
			return "(unknown)";
		}
		// ojs-default-17 -> ojs-default-*, pool-3-thread-1 -> pool-*-thread-*
		return thread.replaceAll("-\\d+(?=-|$)", "-*").replaceAll("ojs-completer-.*", "ojs-completer");
	}

	static String component(List<RecordedFrame> frames) {
		for (RecordedFrame frame : frames) {
			String type = frame.getMethod().getType().getName();
			for (Map.Entry<String, String> component : COMPONENTS.entrySet()) {
				if (type.startsWith(component.getKey())) {
					return component.getValue();
				}
			}
		}
		return "JDK only";
	}

	private static String firstNonJdk(List<RecordedFrame> frames) {
		for (RecordedFrame frame : frames) {
			String method = method(frame);
			if (!method.startsWith("java.") && !method.startsWith("jdk.") && !method.startsWith("sun.")) {
				return method;
			}
		}
		return frames.isEmpty() ? "?" : method(frames.get(0));
	}

	private static String method(RecordedFrame frame) {
		return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
	}

	private static void table(PrintStream out, String title, Map<String, Long> counts, long total) {
		ResultTable table = new ResultTable(title, "what", "samples", "%");
		counts.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.limit(TOP)
			.forEach((entry) -> table.row(entry.getKey(), entry.getValue(), 100.0 * entry.getValue() / total));
		table.print(out);
	}

}
