package dev.ojs.bench.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Restarts the local PostgreSQL cluster with Debian's
 * {@code pg_ctlcluster --skip-systemctl-redirect <version> main restart}, the version taken
 * from {@code /etc/postgresql}. Only possible when the harness's database is on this
 * machine and {@code pg_ctlcluster} is installed.
 */
public final class PostgresControl {

	private static final Pattern HOST = Pattern.compile("jdbc:postgresql://([^:/?,]+|\\[[^]]+])(:\\d+)?/.*");

	private final Path configRoot;

	private final @Nullable String pathVariable;

	PostgresControl(Path configRoot, @Nullable String pathVariable) {
		this.configRoot = configRoot;
		this.pathVariable = pathVariable;
	}

	public static PostgresControl local() {
		return new PostgresControl(Path.of("/etc/postgresql"), System.getenv("PATH"));
	}

	/**
	 * Why the cluster cannot be restarted from here, or empty when it can.
	 * @param jdbcUrl the database the harness uses
	 * @return the reason, e.g. "pg_ctlcluster not found on PATH"
	 */
	public Optional<String> unavailableReason(String jdbcUrl) {
		if (!isLocal(jdbcUrl)) {
			return Optional.of("the database is not on this machine: " + jdbcUrl);
		}
		if (findOnPath("pg_ctlcluster").isEmpty()) {
			return Optional.of("pg_ctlcluster not found on PATH");
		}
		if (version().isEmpty()) {
			return Optional.of("no cluster version under " + this.configRoot);
		}
		return Optional.empty();
	}

	/** The highest PostgreSQL version configured under {@code /etc/postgresql}. */
	public Optional<String> version() {
		if (!Files.isDirectory(this.configRoot)) {
			return Optional.empty();
		}
		try (Stream<Path> children = Files.list(this.configRoot)) {
			return children.filter(Files::isDirectory)
				.map((child) -> child.getFileName().toString())
				.filter((name) -> name.matches("\\d+(\\.\\d+)?"))
				.max((a, b) -> Double.compare(Double.parseDouble(a), Double.parseDouble(b)));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	/** The restart command for the detected version. */
	public List<String> restartCommand() {
		String version = version().orElseThrow(() -> new IllegalStateException("No PostgreSQL cluster found"));
		return List.of("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart");
	}

	/**
	 * Restarts the cluster and waits for the command to finish (it returns once the server
	 * accepts connections again).
	 * @return how long the restart took
	 * @throws IllegalStateException when the command fails
	 */
	public Duration restart() throws IOException, InterruptedException {
		long start = System.nanoTime();
		Process process = new ProcessBuilder(restartCommand()).redirectErrorStream(true).start();
		String output;
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("PostgreSQL restart did not finish within 120 s");
		}
		output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (process.exitValue() != 0) {
			throw new IllegalStateException("PostgreSQL restart failed (exit " + process.exitValue() + "): " + output);
		}
		return Duration.ofNanos(System.nanoTime() - start);
	}

	static boolean isLocal(String jdbcUrl) {
		Matcher matcher = HOST.matcher(jdbcUrl);
		if (!matcher.matches()) {
			return false;
		}
		String host = matcher.group(1);
		return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]");
	}

	Optional<Path> findOnPath(String command) {
		if (this.pathVariable == null) {
			return Optional.empty();
		}
		for (String directory : this.pathVariable.split(File.pathSeparator)) {
			if (directory.isEmpty()) {
				continue;
			}
			Path candidate = Path.of(directory, command);
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

}
