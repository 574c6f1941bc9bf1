package dev.ojs.web.security;

import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.ojs.spring.IntegrationTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the matrix's modes take for granted at start-up, without Spring Security: an OJS
 * surface without any credential configured does not start (the message names the
 * properties to set), and each loopback opt-in is announced with a WARN.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecurityMatrixStartupTests {

	@Test
	void theBindingWithoutAnyCredentialDoesNotStart() {
		assertThatThrownBy(() -> run("ojs.http.enabled=true").close()).rootCause()
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("ojs.http.token")
			.hasMessageContaining("ojs.http.allow-unauthenticated-loopback");
	}

	@Test
	void theAdminApiWithoutAnyCredentialDoesNotStart() {
		assertThatThrownBy(() -> run("ojs.dashboard.enabled=true").close()).rootCause()
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("ojs.dashboard.token")
			.hasMessageContaining("ojs.http.token")
			.hasMessageContaining("ojs.dashboard.allow-unauthenticated-loopback");
	}

	@Test
	void loopbackOptInsAreAnnouncedWithAWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("ojs.http.enabled=true", "ojs.dashboard.enabled=true",
				"ojs.http.allow-unauthenticated-loopback=true", "ojs.dashboard.allow-unauthenticated-loopback=true")) {
			assertThat(output.getOut().lines()
				.filter((line) -> line.contains("WARN") && line.contains("ojs.http.allow-unauthenticated-loopback=true")))
				.hasSize(1);
			assertThat(output.getOut().lines()
				.filter((line) -> line.contains("WARN") && line.contains("ojs.dashboard.allow-unauthenticated-loopback=true")))
				.hasSize(1);
		}
	}

	private static ConfigurableApplicationContext run(String... properties) {
		String prefix = "m" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
		return new SpringApplicationBuilder(IntegrationTestApplication.class).web(WebApplicationType.SERVLET)
			.properties("server.port=0", "test.database=H2", "ojs.jdbc.table-prefix=" + prefix,
					"ojs.jdbc.initialize-schema=always", "ojs.worker.enabled=false")
			.properties(properties)
			.run();
	}

}
