package dev.ojs.bench.scenario;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarFile;

/**
 * The process of the {@link RemoteHttpWorkers}: a second JVM on this machine, started once per
 * benchmark JVM and kept for its later runs, so that a warm-up run compiles its code too. It
 * runs from the benchmark's own class path: with {@code java -jar}, the Spring Boot jar through
 * its {@code PropertiesLauncher}.
 */
final class HttpWorkerProcess {

	private static HttpWorkerProcess shared;

	private final Process process;

	private final Writer commands;

	private final BufferedReader answers;

	private HttpWorkerProcess(Process process) {
		this.process = process;
		this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
		this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
	}

	/** The workers' process, started on first use and ended when this JVM ends. */
	static synchronized HttpWorkerProcess shared() throws IOException {
		if (shared == null || !shared.process.isAlive()) {
			Process process = new ProcessBuilder(command()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "bench-http-workers-stop"));
			shared = new HttpWorkerProcess(process);
		}
		return shared;
	}

	/** What the workers drained. */
	record Drained(double seconds, long fetches) {
	}

	/** Has the workers drain {@code jobs} jobs of the queue {@code remote} (see {@link RemoteHttpWorkers}). */
	synchronized Drained drain(int port, String token, int jobs, int workers, int perWorker, boolean batchAck)
			throws IOException {
		this.commands.write(String.format(Locale.ROOT, "drain %d %s %d %d %d %b%n", port, token, jobs, workers,
				perWorker, batchAck));
		this.commands.flush();
		String answer = this.answers.readLine();
		if (answer == null || !answer.startsWith("drained ")) {
			throw new IllegalStateException("HTTP workers' process: " + answer);
		}
		String[] words = answer.split(" ");
		return new Drained(Double.parseDouble(words[1]), Long.parseLong(words[2]));
	}

	private static List<String> command() throws IOException {
		String classPath = System.getProperty("java.class.path");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-cp", classPath));
		if (isBootJar(classPath)) {
			command.add("-Dloader.main=" + RemoteHttpWorkers.class.getName());
			command.add("org.springframework.boot.loader.launch.PropertiesLauncher");
		}
		else {
			command.add(RemoteHttpWorkers.class.getName());
		}
		return command;
	}

	/** Whether the class path is one Spring Boot jar, whose classes only its launcher reads. */
	private static boolean isBootJar(String classPath) throws IOException {
		if (classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
			return false;
		}
		try (JarFile jar = new JarFile(classPath)) {
			return jar.getEntry("BOOT-INF/classes/") != null;
		}
	}

}
