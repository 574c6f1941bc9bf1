package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.OjsNames;
import dev.ojs.worker.WorkerSettings;

import static dev.ojs.spring.autoconfigure.OjsContexts.failureMessages;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Binding and validation of {@link OjsProperties}.
 */
class OjsPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(PropertiesConfiguration.class);

	@Test
	void defaults() {
		withProperties((properties) -> {
			assertThat(properties.isEnabled()).isTrue();
			assertThat(properties.getVisibilityTimeout()).isEqualTo(Duration.ofMinutes(30));
			assertThat(properties.getErrorHistoryLimit()).isEqualTo(20);
			assertThat(properties.getWorker().isEnabled()).isTrue();
			assertThat(properties.getWorker().isAutoStartup()).isTrue();
			assertThat(properties.getWorker().getConcurrency()).isEqualTo(32);
			assertThat(properties.getWorker().getPollInterval()).isEqualTo(Duration.ofSeconds(1));
			assertThat(properties.getWorker().getShutdownGracePeriod()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getJdbc().getInitializeSchema()).isEqualTo(DatabaseInitializationMode.EMBEDDED);
			assertThat(properties.getJdbc().getTablePrefix()).isEqualTo("ojs_");
			assertThat(properties.getDeadLetter().getMaxAge()).isEqualTo(Duration.ofDays(180));
			assertThat(properties.getDeadLetter().getMaxCount()).isEqualTo(10_000);
			assertThat(properties.getRetention().getCompleted()).isEqualTo(Duration.ofHours(1));
			assertThat(properties.getRetention().getDiscarded()).isEqualTo(Duration.ofDays(7));
			assertThat(properties.getRetention().getPruneInterval()).isEqualTo(Duration.ofMinutes(1));
			assertThat(properties.defaultRetryPolicy()).isEqualTo(RetryPolicy.DEFAULT);
			WorkerSettings settings = properties.workerSettings();
			assertThat(settings.queues()).containsExactly(Map.entry("default", 32));
			assertThat(settings.visibilityTimeout()).isEqualTo(Duration.ofMinutes(30));
			assertThat(settings.retention().deadLetterMaxCount()).isEqualTo(10_000);
		});
	}

	@ParameterizedTest
	@CsvSource({ "500ms", "PT0.5S", "pt0.5s" })
	void durationsAcceptBootAndIsoSyntax(String value) {
		Duration expected = Duration.ofMillis(500);
		withProperties((properties) -> {
			assertThat(properties.getVisibilityTimeout()).isEqualTo(expected);
			assertThat(properties.getWorker().getPollInterval()).isEqualTo(expected);
			assertThat(properties.getWorker().getShutdownGracePeriod()).isEqualTo(expected);
			assertThat(properties.getRetry().getInitialInterval()).isEqualTo(expected);
			assertThat(properties.getRetry().getMaxInterval()).isEqualTo(expected);
			assertThat(properties.getDeadLetter().getMaxAge()).isEqualTo(expected);
			assertThat(properties.getRetention().getCompleted()).isEqualTo(expected);
			assertThat(properties.getRetention().getDiscarded()).isEqualTo(expected);
			assertThat(properties.getRetention().getPruneInterval()).isEqualTo(expected);
			assertThat(properties.defaultRetryPolicy().initialInterval()).isEqualTo(expected);
		}, "ojs.visibility-timeout=" + value, "ojs.worker.poll-interval=" + value,
				"ojs.worker.shutdown-grace-period=" + value, "ojs.retry.initial-interval=" + value,
				"ojs.retry.max-interval=" + value, "ojs.dead-letter.max-age=" + value,
				"ojs.retention.completed=" + value, "ojs.retention.discarded=" + value,
				"ojs.retention.prune-interval=" + value);
	}

	@Test
	void retryPropertiesOverrideTheSpecDefaults() {
		withProperties((properties) -> {
			RetryPolicy policy = properties.defaultRetryPolicy();
			assertThat(policy.maxAttempts()).isEqualTo(7);
			assertThat(policy.initialInterval()).isEqualTo(Duration.ofMillis(250));
			assertThat(policy.backoffCoefficient()).isEqualTo(1.5);
			assertThat(policy.maxInterval()).isEqualTo(Duration.ofMinutes(2));
			assertThat(policy.jitter()).isFalse();
			assertThat(policy.nonRetryableErrors()).containsExactly("java.net.*", "validation.bad_input");
			assertThat(policy.onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
			assertThat(policy.backoffStrategy()).isEqualTo(BackoffStrategy.LINEAR);
		}, "ojs.retry.max-attempts=7", "ojs.retry.initial-interval=250ms", "ojs.retry.backoff-coefficient=1.5",
				"ojs.retry.max-interval=PT2M", "ojs.retry.jitter=false",
				"ojs.retry.non-retryable-errors=java.net.*,validation.bad_input",
				"ojs.retry.on-exhaustion=dead_letter", "ojs.retry.backoff-strategy=linear");
	}

	@Test
	void unsetRetryPropertiesInheritTheSpecDefaults() {
		withProperties((properties) -> {
			assertThat(properties.getRetry().toPolicy().maxAttempts()).isNull();
			RetryPolicy policy = properties.defaultRetryPolicy();
			assertThat(policy.maxAttempts()).isEqualTo(3);
			assertThat(policy.onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
			assertThat(policy.initialInterval()).isEqualTo(Duration.ofSeconds(1));
		}, "ojs.retry.on-exhaustion=dead-letter");
	}

	@Test
	void queuesMapToTheirConcurrency() {
		withProperties((properties) -> assertThat(properties.workerSettings().queues())
			.containsExactlyInAnyOrderEntriesOf(Map.of("emails", 2, "reports", 4)), "ojs.worker.concurrency=4",
				"ojs.worker.queues.emails=2", "ojs.worker.queues.reports=0");
	}

	@Test
	void workerSettingsCarryRetention() {
		withProperties((properties) -> {
			WorkerSettings settings = properties.workerSettings();
			assertThat(settings.nodeId()).isEqualTo("node-a");
			assertThat(settings.retention().completed()).isEqualTo(Duration.ZERO);
			assertThat(settings.retention().deadLetterMaxAge()).isEqualTo(Duration.ofDays(3));
			assertThat(settings.retention().deadLetterMaxCount()).isEqualTo(5);
		}, "ojs.worker.node-id=node-a", "ojs.retention.completed=0s", "ojs.dead-letter.max-age=3d",
				"ojs.dead-letter.max-count=5");
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', value = { "ojs.retry.max-attempts|-1", "ojs.retry.backoff-coefficient|0.5",
			"ojs.retry.initial-interval|0s", "ojs.retry.initial-interval|soon", "ojs.retry.max-interval|-5s",
			"ojs.retry.on-exhaustion|retry_forever", "ojs.retry.backoff-strategy|fibonacci",
			"ojs.retry.jitter|maybe", "ojs.jdbc.table-prefix|1ojs_", "ojs.jdbc.table-prefix|ojs; drop table x",
			"ojs.jdbc.table-prefix|a_very_long_table_prefix_that_is_over_forty_chars",
			"ojs.jdbc.initialize-schema|sometimes", "ojs.worker.concurrency|0", "ojs.worker.poll-interval|0s",
			"ojs.worker.shutdown-grace-period|-1s", "ojs.worker.queues.emails|-2", "ojs.visibility-timeout|0s",
			"ojs.error-history-limit|5", "ojs.dead-letter.max-age|0s", "ojs.dead-letter.max-count|-1",
			"ojs.retention.completed|-1s", "ojs.retention.discarded|-1s", "ojs.retention.prune-interval|0s",
			"ojs.max-args-size|0B", "ojs.max-meta-size|0B" })
	void invalidValueFailsStartupNamingTheProperty(String property, String value) {
		this.contextRunner.withPropertyValues(property + "=" + value)
			.run((context) -> assertThat(failureMessages(context)).contains(property));
	}

	@Test
	void maxIntervalBelowInitialIntervalNamesTheProperty() {
		this.contextRunner.withPropertyValues("ojs.retry.initial-interval=10s", "ojs.retry.max-interval=1s")
			.run((context) -> assertThat(failureMessages(context)).contains("ojs.retry.max-interval"));
	}

	@Test
	void rateLimitOfAQueueNameEveryEdgeRefusesNamesTheProperty() {
		this.contextRunner.withPropertyValues("ojs.rate-limits.Billing.limit=5")
			.run((context) -> assertThat(failureMessages(context)).contains("'Billing'", "ojs.rate-limits",
					OjsNames.QUEUE_MESSAGE));
	}

	@Test
	void blankNonRetryableErrorNamesTheProperty() {
		this.contextRunner.withPropertyValues("ojs.retry.non-retryable-errors[0]=java.io.*",
				"ojs.retry.non-retryable-errors[1]= ")
			.run((context) -> assertThat(failureMessages(context)).contains("ojs.retry.non-retryable-errors"));
	}

	private void withProperties(Consumer<OjsProperties> assertions, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			assertions.accept(context.getBean(OjsProperties.class));
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(OjsProperties.class)
	static class PropertiesConfiguration {

	}

}
