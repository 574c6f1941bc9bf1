package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.context.ConfigurableApplicationContext;

import dev.ojs.spring.OjsTemplate;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AbstractFirstStartTests} on an embedded H2 database, where the tables are created
 * unless {@code ojs.jdbc.initialize-schema=never}; and the log of a job that fails until it
 * is dead-lettered, with the level of logger {@code dev.ojs.worker.FailedAttempts} set as an
 * application sets it.
 */
class H2FirstStartTests extends AbstractFirstStartTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

	@Test
	void failedAttemptsAndTheDeadLetterAreLogged(CapturedOutput output) {
		List<String> settings = withTables();
		settings.add("--logging.level.dev.ojs.worker.FailedAttempts=debug");
		try (ConfigurableApplicationContext context = start(settings)) {
			String id = context.getBean(OjsTemplate.class).enqueue("email.send_welcome", "user-1");
			String job = "dev.ojs.worker.FailedAttempts OJS job email.send_welcome " + id + " (queue default) attempt ";
			String error = "java.lang.IllegalStateException: SMTP server down";
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(output.getAll())
					.contains("WARN " + job + "3 failed and was dead-lettered: " + error));
			// 10 ms, then 20 ms, each with the default jitter
			assertThat(output.getAll()).contains("DEBUG " + job + "1 failed, retrying in PT0.0")
				.contains("DEBUG " + job + "2 failed, retrying in PT0.0")
				.contains("Z: " + error);
		}
	}

}
