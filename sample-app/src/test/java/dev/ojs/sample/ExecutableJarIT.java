package dev.ojs.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The jar that {@code package} builds is executable: {@code java -jar} starts the sample on
 * embedded H2, as the README runs it, and {@code /actuator/deadletters} lists the dead letters
 * of the jobs it enqueued at start-up. Runs in {@code verify} (Failsafe), after the jar exists.
 */
class ExecutableJarIT {

	/** Bounds the start-up generously: the build machine may be busy. */
	private static final Duration STARTUP = Duration.ofSeconds(90);

	private static final Duration JOBS = Duration.ofSeconds(20);

	private static final Set<String> DEAD_LETTER_TYPES = Set.of("sample.charge", "sample.import", "sample.sync");

	@Test
	void javaDashJarStartsTheSampleAndShowsItsDeadLetters() throws Exception {
		Path target = Path.of(System.getProperty("basedir", "."), "target");
		Path jar = executableJar(target);
		Path log = target.resolve("executable-jar-it.log");
		int port = freePort();
		// C1 only: a faster start for a short run, as spring-boot:run's optimized launch does
		Process process = new ProcessBuilder(java(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
				"--server.port=" + port)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			SampleClient anonymous = new SampleClient(port);
			await().atMost(STARTUP)
				.failFast("the application exited; see " + log, () -> !process.isAlive())
				.ignoreExceptions()
				.until(() -> anonymous.get("/actuator/health"), (response) -> response.statusCode() == 200);
			// the actuator's reads need a user: the admin's password is printed at start-up
			assertThat(anonymous.get("/actuator/deadletters").statusCode()).isEqualTo(401);
			Matcher admin = Pattern.compile("admin {2}/ (\\S+) ").matcher(Files.readString(log));
			assertThat(admin.find()).as("the admin's password in " + log).isTrue();
			SampleClient client = anonymous.as("admin", admin.group(1));
			HttpResponse<String> first = client.get("/actuator/deadletters");
			assertThat(first.statusCode()).isEqualTo(200);
			assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
					(contentType) -> assertThat(contentType).contains("json"));
			assertThat(client.readTree(first).get("deadLetters").isArray()).isTrue();
			JsonNode page = await().atMost(JOBS)
				.until(() -> client.getJson("/actuator/deadletters"), (list) -> list.get("total").asInt() == 3);
			assertThat(StreamSupport.stream(page.get("deadLetters").spliterator(), false)
				.map((deadLetter) -> deadLetter.get("type").asString())
				.collect(Collectors.toSet())).isEqualTo(DEAD_LETTER_TYPES);
			// and lets one into the Admin API
			HttpResponse<String> groups = client.get("/ojs/v1/admin/dead-letter/groups");
			assertThat(groups.statusCode()).isEqualTo(200);
			assertThat(client.readTree(groups).get("items")).hasSize(3);
		}
		finally {
			stop(process);
		}
	}

	/** The jar repackaged by spring-boot-maven-plugin (not the {@code .jar.original}). */
	private static Path executableJar(Path target) throws IOException {
		List<Path> jars = new ArrayList<>();
		try (Stream<Path> files = Files.list(target)) {
			files.filter((file) -> file.getFileName().toString().matches("sample-app-.*\\.jar"))
				.filter((file) -> !file.getFileName().toString().endsWith("-sources.jar"))
				.forEach(jars::add);
		}
		assertThat(jars).as("the jar built by 'package' in %s", target).hasSize(1);
		return jars.get(0);
	}

	/** The {@code java} executable of the JVM that runs this test, as the build uses. */
	private static String java() {
		return ProcessHandle.current()
			.info()
			.command()
			.orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/** Asks for a graceful shutdown (SIGTERM), then kills what is left. */
	private static void stop(Process process) throws InterruptedException {
		process.destroy();
		if (!process.waitFor(15, TimeUnit.SECONDS)) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
		}
	}

}
