package dev.ojs.spring.autoconfigure;

import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.worker.RetentionSettings;
import dev.ojs.worker.WorkerSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults that IDEs show for {@code ojs.*} properties (configuration metadata) are the
 * engine's constants, which {@link OjsProperties} uses: each default has one source.
 */
class ConfigurationMetadataDefaultsTests {

	@Test
	void metadataDefaultsAreTheEngineConstants() throws Exception {
		Map<String, JsonNode> defaults = new HashMap<>();
		try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			JsonNode metadata = JsonMapper.builder().build().readTree(in);
			metadata.get("properties").forEach((property) -> {
				if (property.has("defaultValue")) {
					defaults.put(property.get("name").asString(), property.get("defaultValue"));
				}
			});
		}
		assertThat(duration(defaults, "ojs.visibility-timeout")).isEqualTo(WorkerSettings.DEFAULT_VISIBILITY_TIMEOUT);
		assertThat(duration(defaults, "ojs.worker.poll-interval")).isEqualTo(WorkerSettings.DEFAULT_POLL_INTERVAL);
		assertThat(duration(defaults, "ojs.worker.shutdown-grace-period"))
			.isEqualTo(WorkerSettings.DEFAULT_SHUTDOWN_GRACE_PERIOD);
		assertThat(defaults.get("ojs.worker.concurrency").asInt()).isEqualTo(WorkerSettings.DEFAULT_QUEUE_CONCURRENCY);
		assertThat(defaults.get("ojs.error-history-limit").asInt()).isEqualTo(WorkerSettings.DEFAULT_ERROR_HISTORY);
		assertThat(defaults.get("ojs.jdbc.table-prefix").asString()).isEqualTo(JdbcStoreSettings.DEFAULT_TABLE_PREFIX);
		assertThat(duration(defaults, "ojs.retention.completed")).isEqualTo(RetentionSettings.DEFAULT_COMPLETED);
		assertThat(duration(defaults, "ojs.retention.discarded")).isEqualTo(RetentionSettings.DEFAULT_DISCARDED);
		assertThat(duration(defaults, "ojs.retention.prune-interval")).isEqualTo(RetentionSettings.DEFAULT_PRUNE_INTERVAL);
		assertThat(duration(defaults, "ojs.dead-letter.max-age"))
			.isEqualTo(RetentionSettings.DEFAULT_DEAD_LETTER_MAX_AGE);
		assertThat(defaults.get("ojs.dead-letter.max-count").asInt())
			.isEqualTo(RetentionSettings.DEFAULT_DEAD_LETTER_MAX_COUNT);
	}

	@Test
	void boundPropertiesStartFromTheSameConstants() {
		OjsProperties properties = new OjsProperties();
		assertThat(properties.workerSettings()).isEqualTo(new WorkerSettings(null, properties.workerSettings().queues(),
				WorkerSettings.DEFAULT_POLL_INTERVAL, WorkerSettings.DEFAULT_VISIBILITY_TIMEOUT,
				WorkerSettings.DEFAULT_SHUTDOWN_GRACE_PERIOD, RetentionSettings.defaults()));
		assertThat(properties.workerSettings().queues()).containsOnlyKeys(dev.ojs.job.NewJob.DEFAULT_QUEUE);
	}

	private static Duration duration(Map<String, JsonNode> defaults, String name) {
		return DurationStyle.detectAndParse(defaults.get(name).asString());
	}

}
