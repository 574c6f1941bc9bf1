package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import dev.ojs.spring.OjsJob;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A new application's first start, as a user makes it: a Spring Boot application with the
 * starter's auto-configuration and one handler, on a database that has never seen OJS. Without
 * the tables, start-up stops with a failure analysis that names them and the two ways to
 * create them; with them, and otherwise default settings, nothing OJS logs is a warning.
 * Log lines are printed as {@code LEVEL logger message}.
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class AbstractFirstStartTests {

	private ScratchDatabase database;

	protected abstract TestDatabases.Kind kind();

	@BeforeEach
	void createDatabase() {
		this.database = ScratchDatabase.create(kind());
	}

	@AfterEach
	void dropDatabase() {
		this.database.close();
	}

	/** The new database with the schema mode that leaves it without tables (the default but on H2). */
	List<String> withoutTables() {
		List<String> settings = this.database.settings();
		if (kind() == TestDatabases.Kind.H2) {
			settings.add("--ojs.jdbc.initialize-schema=never");
		}
		return settings;
	}

	/** The new database with the schema mode that creates the tables (the default on H2). */
	List<String> withTables() {
		List<String> settings = this.database.settings();
		if (kind() != TestDatabases.Kind.H2) {
			settings.add("--ojs.jdbc.initialize-schema=always");
		}
		return settings;
	}

	/** The warnings a server's own settings explain, which a fresh application may log. */
	protected List<String> expectedWarnings() {
		return List.of();
	}

	@Test
	void aMissingSchemaStopsStartUpNamingTheTablesAndTheWaysOut(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start(withoutTables()).close());
		assertThat(output.getAll()).contains("APPLICATION FAILED TO START")
			.contains("OJS cannot start: the tables ojs_jobs, ojs_job_errors, ojs_handlers, ojs_schedules, ojs_leases,"
					+ " ojs_queues, ojs_nodes, ojs_stats, ojs_job_results, ojs_workflows, ojs_limits do not exist in the " + platform() + " database")
			.contains("set ojs.jdbc.initialize-schema=always")
			.contains("apply the script dev/ojs/jdbc/schema-" + platform() + ".sql from the ojs-core jar")
			.doesNotContain("BadSqlGrammarException");
	}

	@Test
	void aFreshApplicationWithDefaultSettingsLogsNoWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(withTables())) {
			assertThat(output.getAll()).contains("OJS worker").contains(" started: queues {default=32}");
		}
		List<String> warnings = output.getAll()
			.lines()
			.filter((line) -> line.startsWith("WARN dev.ojs."))
			.filter((line) -> expectedWarnings().stream().noneMatch(line::contains))
			.toList();
		assertThat(warnings).isEmpty();
	}

	private String platform() {
		return kind().name().toLowerCase(Locale.ROOT);
	}

	ConfigurableApplicationContext start(List<String> settings) {
		List<String> args = new ArrayList<>(settings);
		args.addAll(List.of("--logging.pattern.console=%level %logger %msg%n", "--spring.main.banner-mode=off",
				"--ojs.worker.shutdown-grace-period=1s"));
		return new SpringApplicationBuilder(FirstApplication.class).web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(WelcomeJobs.class)
	static class FirstApplication {

	}

	static class WelcomeJobs {

		@OjsJob(type = "email.send_welcome", maxAttempts = 3, initialInterval = "PT0.01S",
				onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
		void sendWelcome(String userId) {
			throw new IllegalStateException("SMTP server down");
		}

	}

}
