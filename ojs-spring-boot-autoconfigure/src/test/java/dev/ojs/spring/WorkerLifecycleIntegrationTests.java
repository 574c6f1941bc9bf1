package dev.ojs.spring;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.ojs.job.JobState;
import dev.ojs.spring.actuate.OjsEndpoint;
import dev.ojs.spring.autoconfigure.OjsProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@link OjsWorker} bean with {@code ojs.worker.auto-startup=false}: nothing is claimed
 * until {@link OjsWorker#start()}; {@link OjsWorker#stop()} is graceful
 * (ojs-graceful-shutdown.md §5: quiet, then drain within the grace period) and the worker
 * can be started again. Subclasses choose the database.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, WorkerLifecycleIntegrationTests.GatedJobs.class },
		properties = { "ojs.worker.auto-startup=false", "management.endpoints.web.exposure.include=health,ojs",
				"management.health.ojs.enabled=true" })
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class WorkerLifecycleIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private OjsWorker worker;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private IntegrationJobs jobs;

	@Autowired
	private GatedJobs gatedJobs;

	@Autowired
	private OjsProperties properties;

	@Autowired
	private OjsEndpoint endpoint;

	@Autowired
	private HealthEndpoint health;

	@AfterEach
	void stopWorker() {
		this.worker.stop();
	}

	@Test
	@Order(1)
	void aWorkerThatDoesNotStartAutomaticallyClaimsNothingUntilStarted() {
		assertThat(this.worker.isAutoStartup()).isFalse();
		assertThat(this.worker.isRunning()).isFalse();
		// the ojs endpoint says so; the health of the job table does not depend on it
		OjsEndpoint.WorkerDescriptor described = this.endpoint.ojs().worker();
		assertThat(described.mode()).isEqualTo(OjsEndpoint.MODE_WORKER);
		assertThat(described.running()).isFalse();
		assertThat(this.health.healthForPath("ojs").getStatus()).isEqualTo(Status.UP);

		String id = this.template.enqueue("it.ok", "waits");
		assertStaysAvailable(id);
		assertThat(this.jobs.calls(id)).isEmpty();

		this.worker.start();
		assertThat(this.worker.isRunning()).isTrue();
		assertThat(this.endpoint.ojs().worker().running()).isTrue();
		assertCompleted(id);
		assertThat(this.jobs.calls(id)).containsExactly("waits");
	}

	@Test
	@Order(2)
	void aStoppedWorkerClaimsNothingAndCanBeStartedAgain() {
		this.worker.start();
		assertCompleted(this.template.enqueue("it.ok", "first run"));
		this.worker.stop();
		assertThat(this.worker.isRunning()).isFalse();
		assertThat(this.endpoint.ojs().worker().running()).isFalse();

		String id = this.template.enqueue("it.ok", "after stop");
		assertStaysAvailable(id);

		this.worker.start();
		assertThat(this.worker.isRunning()).isTrue();
		assertCompleted(id);
		assertThat(this.jobs.calls(id)).containsExactly("after stop");
	}

	@Test
	@Order(3)
	void stopWaitsForTheRunningJobToFinish() throws Exception {
		this.worker.start();
		String id = this.template.enqueue("it.gated");
		assertThat(this.gatedJobs.started.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> stopped = CompletableFuture.runAsync(this.worker::stop);
		try {
			// the drain phase: stop() blocks while the job runs, well within the 2s grace period
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> !stopped.isDone());
		}
		finally {
			this.gatedJobs.release.countDown();
		}
		stopped.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(this.worker.isRunning()).isFalse();
		JobInfo job = this.template.getJob(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(this.gatedJobs.ran).containsExactly(id);
	}

	/**
	 * A job stays available, never claimed, for twenty poll intervals: a running worker
	 * would have claimed it within one.
	 */
	private void assertStaysAvailable(String id) {
		Duration window = this.properties.getWorker().getPollInterval().multipliedBy(20);
		await().during(window)
			.atMost(window.plusSeconds(5))
			.until(() -> this.template.getJob(id).orElseThrow(), (job) -> job.state() == JobState.AVAILABLE
					&& job.attempt() == 0);
	}

	private void assertCompleted(String id) {
		JobInfo job = await().atMost(TIMEOUT)
			.until(() -> this.template.getJob(id).orElseThrow(), (info) -> info.state() == JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(1);
	}

	/** A handler that runs until the test releases it. */
	static class GatedJobs {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final Set<String> ran = ConcurrentHashMap.newKeySet();

		@OjsJob(type = "it.gated")
		public void gated(JobContext context) throws InterruptedException {
			this.ran.add(context.id());
			this.started.countDown();
			this.release.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}

	}

}
