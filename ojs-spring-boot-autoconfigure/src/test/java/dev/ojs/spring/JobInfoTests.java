package dev.ojs.spring;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JobInfo}.
 */
class JobInfoTests {

	@Test
	void serialisesPolicyArgsAndMetaAsJsonValues() {
		java.time.Instant now = java.time.Instant.parse("2024-05-01T10:00:00Z");
		java.time.Instant created = java.time.Instant.parse("2024-05-01T08:00:00Z");
		java.time.Instant enqueued = java.time.Instant.parse("2024-05-01T09:00:00Z");
		Job job = new Job("0190f5f0-0000-7000-8000-000000000001", "t", "q", "[1,{\"a\":\"b\"}]", "{\"m\":2}", 3,
				JobState.RETRYABLE, 1, 3, RetryPolicy.DEFAULT, java.util.List.of(), false, "k", now, created, enqueued,
				now, null, null, null, null);
		JsonMapper mapper = new JsonMapper();
		JsonNode json = mapper.readTree(mapper.writeValueAsString(JobInfo.of(job)));
		assertThat(json.get("state").asString()).isEqualTo("retryable");
		assertThat(json.get("retryPolicy")).isEqualTo(mapper.readTree(RetryPolicy.DEFAULT.toJson()));
		assertThat(json.get("argsJson")).isEqualTo(mapper.readTree("[1,{\"a\":\"b\"}]"));
		assertThat(json.get("metaJson")).isEqualTo(mapper.readTree("{\"m\":2}"));
		assertThat(json.get("nextRetryAt").asString()).isEqualTo("2024-05-01T10:00:00Z");
		assertThat(json.get("createdAt").asString()).isEqualTo("2024-05-01T08:00:00Z");
		assertThat(json.get("enqueuedAt").asString()).isEqualTo("2024-05-01T09:00:00Z");
		assertThat(JobInfo.of(job).lastError()).isNull();
	}

}
