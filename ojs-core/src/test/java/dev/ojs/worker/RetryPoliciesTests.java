package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.ojs.job.Job;
import dev.ojs.job.PublishedHandler;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetryPolicies}: the policy a job runs with (spec §8.1), whatever node enqueued it.
 */
class RetryPoliciesTests {

	private static final RetryPolicy APPLICATION = RetryPolicy.builder().maxAttempts(5).build().effective();

	private static final RetryPolicy HANDLER = RetryPolicy.builder()
		.maxAttempts(4)
		.onExhaustion(OnExhaustion.DEAD_LETTER)
		.build()
		.mergedOver(APPLICATION)
		.effective();

	@Test
	void aJobWithoutFieldsOfItsOwnRunsWithItsLocalHandlersPolicy() {
		RetryPolicies policies = policies(Optional.empty());
		assertThat(policies.of(job("local", RetryPolicy.builder().build()))).isSameAs(HANDLER);
	}

	@Test
	void theJobsOwnFieldsGoOverTheHandlersPolicy() {
		RetryPolicy own = RetryPolicy.builder().maxAttempts(2).build();
		RetryPolicy effective = policies(Optional.empty()).of(job("local", own));
		assertThat(effective.maxAttempts()).isEqualTo(2);
		assertThat(effective.onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
	}

	@Test
	void aTypeWithoutALocalHandlerUsesThePublishedOne() {
		PublishedHandler published = new PublishedHandler("remote", "q", 0, RetryPolicy.builder().maxAttempts(7).build(),
				RetryPolicy.builder().onExhaustion(OnExhaustion.DEAD_LETTER).build(), null, "node-2", Instant.EPOCH);
		RetryPolicy effective = policies(Optional.of(published)).of(job("remote", RetryPolicy.builder().build()));
		assertThat(effective.maxAttempts()).isEqualTo(7);
		assertThat(effective.onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
	}

	@Test
	void aTypeNobodyPublishedUsesThisApplicationsDefaults() {
		assertThat(policies(Optional.empty()).of(job("remote", RetryPolicy.builder().build()))).isEqualTo(APPLICATION);
	}

	@Test
	void ownFieldsThatClashWithTheHandlersPolicyFallBackToTheSpecDefaults() {
		// valid over the spec defaults (RET-16 at enqueue), but above the handler's max_interval
		RetryPolicy handler = RetryPolicy.builder().maxInterval(Duration.ofSeconds(1)).build().effective();
		RetryPolicies policies = new RetryPolicies(Map.of("local", registration(handler)), APPLICATION,
				(type) -> Optional.empty());
		assertThat(policies.of(job("local", RetryPolicy.builder().initialInterval(Duration.ofMinutes(1)).build())))
			.isEqualTo(RetryPolicy.builder().initialInterval(Duration.ofMinutes(1)).build().effective());
	}

	private static RetryPolicies policies(Optional<PublishedHandler> published) {
		return new RetryPolicies(Map.of("local", registration(HANDLER)), APPLICATION, (type) -> published);
	}

	private static HandlerRegistration registration(RetryPolicy policy) {
		return new HandlerRegistration("local", "default", 0, null, (attempt) -> {
		}, null, policy);
	}

	private static Job job(String type, RetryPolicy own) {
		Job job = StoredJobs.job(type).build();
		return new Job(job.id(), type, job.queue(), job.argsJson(), job.metaJson(), 0, job.state(), 1, 3, own,
				job.errors(), false, null, job.scheduledAt(), job.createdAt(), job.enqueuedAt(), job.startedAt(), null,
				null, job.lockedBy(), job.lockedUntil());
	}

}
