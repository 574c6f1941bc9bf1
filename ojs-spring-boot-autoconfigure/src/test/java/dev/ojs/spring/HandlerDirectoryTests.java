package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.ojs.job.JobStore;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.TypeLimit;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * {@link HandlerDirectory}: where a type's jobs go and how their policy is layered (spec
 * §8.1), from the local handler, a published one, or none.
 */
class HandlerDirectoryTests {

	private final JobStore store = mock(JobStore.class);

	private final OjsJobRegistry registry = mock(OjsJobRegistry.class);

	private final HandlerDirectory directory = new HandlerDirectory(this.registry, this.store,
			RetryPolicy.builder().maxAttempts(6).build(), "app");

	@Test
	void aPublishedHandlerRoutesAndLayersAndIsLookedUpOnceWhileCached() {
		given(this.registry.find("remote")).willReturn(Optional.empty());
		given(this.store.findPublishedHandler("remote")).willReturn(Optional.of(new PublishedHandler("remote", "mail",
				7, RetryPolicy.builder().maxAttempts(4).build(),
				RetryPolicy.builder().onExhaustion(OnExhaustion.DEAD_LETTER).build(), "other", "node-2", Instant.EPOCH)));
		HandlerDirectory.Route route = this.directory.route("remote");
		assertThat(route.queue()).isEqualTo("mail");
		assertThat(route.priority()).isEqualTo(7);
		assertThat(route.source()).isEqualTo("published");
		assertThat(route.policy().maxAttempts()).as("the publisher's application defaults, not ours").isEqualTo(4);
		assertThat(route.layers().sources()).containsEntry("on_exhaustion", RetryPolicyLayers.HANDLER)
			.containsEntry("max_attempts", RetryPolicyLayers.APPLICATION);
		this.directory.route("remote");
		verify(this.store, times(1)).findPublishedHandler("remote");
	}

	@Test
	void anUnknownTypeGoesToTheDefaultQueueWithThisApplicationsDefaults() {
		given(this.registry.find(anyString())).willReturn(Optional.empty());
		given(this.store.findPublishedHandler(anyString())).willReturn(Optional.empty());
		HandlerDirectory.Route route = this.directory.route("nobody");
		assertThat(route.queue()).isEqualTo("default");
		assertThat(route.priority()).isZero();
		assertThat(route.source()).isEqualTo("none");
		assertThat(route.policy().maxAttempts()).isEqualTo(6);
	}

	@Test
	void aStoreThatCannotBeReadStillLetsJobsBeEnqueuedWithTheDefaults() {
		given(this.registry.find(anyString())).willReturn(Optional.empty());
		given(this.store.findPublishedHandler(anyString()))
			.willThrow(new DataAccessResourceFailureException("no table ojs_handlers"));
		assertThat(this.directory.route("any").queue()).isEqualTo("default");
	}

	@Test
	void aJobWithoutFieldsOfItsOwnSharesItsRoutesLayersMergedOnce() {
		given(this.registry.find(anyString())).willReturn(Optional.empty());
		given(this.store.findPublishedHandler(anyString())).willReturn(Optional.empty());
		dev.ojs.job.Job plain = dev.ojs.testsupport.StoredJobs.job("any").build();
		dev.ojs.job.Job own = new dev.ojs.job.Job(plain.id(), "any", plain.queue(), plain.argsJson(), plain.metaJson(), 0,
				plain.state(), 1, 2, RetryPolicy.builder().maxAttempts(2).build(), plain.errors(), false, null,
				plain.scheduledAt(), plain.createdAt(), plain.enqueuedAt(), plain.startedAt(), null, null,
				plain.lockedBy(), plain.lockedUntil());
		dev.ojs.job.Job none = new dev.ojs.job.Job(plain.id(), "any", plain.queue(), plain.argsJson(), plain.metaJson(),
				0, plain.state(), 1, 6, RetryPolicy.builder().build(), plain.errors(), false, null, plain.scheduledAt(),
				plain.createdAt(), plain.enqueuedAt(), plain.startedAt(), null, null, plain.lockedBy(),
				plain.lockedUntil());
		RetryPolicyLayers layers = this.directory.layers(none);
		assertThat(layers).isSameAs(this.directory.route("any").layers());
		assertThat(layers.effective()).isSameAs(layers.effective()).isEqualTo(this.directory.route("any").policy());
		assertThat(layers.sources()).isSameAs(layers.sources()).containsEntry("max_attempts", RetryPolicyLayers.APPLICATION);
		RetryPolicyLayers withOwn = this.directory.layers(own);
		assertThat(withOwn.effective().maxAttempts()).isEqualTo(2);
		assertThat(withOwn.sources()).containsEntry("max_attempts", RetryPolicyLayers.JOB);
	}

	@Test
	void publishingWithoutHandlersWritesNothing() {
		given(this.registry.jobs()).willReturn(List.of());
		this.directory.publish("node-1");
		verify(this.store, times(0)).publishHandlers(org.mockito.ArgumentMatchers.any());
	}

	/**
	 * {@code @OjsJob(globalConcurrency, globalConcurrencyPerKey)}: publishing writes the limits
	 * that differ from the stored ones, and removes those set to 0.
	 */
	@Test
	void publishingWritesTheTypesLimitsWhereTheyDiffer() {
		given(this.registry.jobs()).willReturn(List.of(registered("limited", 3, 0), registered("same", 2, 1),
				registered("freed", 0, 0), registered("plain", 0, 0), registered("keyed", 0, 1)));
		given(this.store.typeLimits()).willReturn(Map.of("same", new TypeLimit(2, 1), "freed", new TypeLimit(5, null)));
		this.directory.publish("node-1");
		verify(this.store).setTypeLimit("limited", new TypeLimit(3, null));
		verify(this.store).setTypeLimit("freed", TypeLimit.NONE);
		verify(this.store).setTypeLimit("keyed", new TypeLimit(null, 1));
		verify(this.store, never()).setTypeLimit(eq("same"), any());
		verify(this.store, never()).setTypeLimit(eq("plain"), any());
	}

	private static RegisteredJob registered(String type, int globalConcurrency, int globalConcurrencyPerKey) {
		return new RegisteredJob(type, "default", 0, 0, globalConcurrency, globalConcurrencyPerKey, Duration.ofMinutes(5),
				RetryPolicy.builder().build(),
				RetryPolicy.builder().build(), "bean", "Bean#run()");
	}

}
