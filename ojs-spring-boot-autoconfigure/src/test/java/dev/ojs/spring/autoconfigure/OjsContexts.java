package dev.ojs.spring.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Application contexts of the auto-configuration tests.
 */
final class OjsContexts {

	private OjsContexts() {
	}

	/** OJS auto-configuration on a fresh embedded H2 database. */
	static ApplicationContextRunner onEmbeddedDatabase() {
		return new ApplicationContextRunner().withPropertyValues("spring.datasource.generate-unique-name=true")
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, OjsAutoConfiguration.class,
					OjsWorkerAutoConfiguration.class));
	}

	/** Every message of the start-up failure's cause chain. */
	static String failureMessages(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		StringBuilder messages = new StringBuilder();
		for (Throwable failure = context.getStartupFailure(); failure != null; failure = failure.getCause()) {
			messages.append(failure.getMessage()).append('\n');
		}
		return messages.toString();
	}

}
