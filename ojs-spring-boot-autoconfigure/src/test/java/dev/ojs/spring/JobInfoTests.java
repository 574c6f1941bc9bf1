package dev.ojs.spring;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JobInfo}.
 */
class JobInfoTests {

	@Test
	void serialisesPolicyArgsAndMetaAsJsonValues() {
		Job job = StoredJobs.job("t")
			.args("[1,{\"a\":\"b\"}]")
			.meta("{\"m\":2}")
			.state(JobState.RETRYABLE)
			.scheduledAt(Instant.parse("2024-05-01T10:00:00Z"))
			.createdAt(Instant.parse("2024-05-01T08:00:00Z"))
			.enqueuedAt(Instant.parse("2024-05-01T09:00:00Z"))
			.build();
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
