package dev.ojs.spring.autoconfigure.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.actuate.JobMetricsListener;
import dev.ojs.spring.actuate.QueueDepthMetrics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.DISCARD;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.EXHAUST;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.EXHAUST_ERROR;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.FLAKY;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.OK;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.PAYMENTS;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.POISON;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.POISON_ERROR;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestContexts.TIMEOUT;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestContexts.matching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;

/**
 * Every operation of the {@code deadletters} and {@code ojs} endpoints, the {@code ojs}
 * health indicator and the metrics, over HTTP, against an application whose worker runs
 * real jobs, on the database a subclass picks. Writes are allowed here
 * ({@code management.endpoint.deadletters.access=unrestricted},
 * {@code management.endpoint.ojs.access=unrestricted}); see {@link ActuatorReadOnlyHttpTests}
 * for the default.
 */
@SpringBootTest(classes = ActuatorTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=deadletters,ojs,health,metrics",
				"management.endpoint.deadletters.access=unrestricted", "management.endpoint.ojs.access=unrestricted",
				"management.endpoint.health.show-details=always",
				"management.health.ojs.enabled=true", "management.metrics.ojs.depth-refresh-interval=0s",
				"ojs.worker.poll-interval=50ms" })
@AutoConfigureRestTestClient
abstract class AbstractActuatorHttpTests {

	@Autowired
	private RestTestClient client;

	@Autowired
	private OjsTemplate ojs;

	@Autowired
	private JobStore store;

	@BeforeEach
	void noDeadLetters() {
		this.store.findDeadLetters(DeadLetterFilter.ALL, 0, 1000).forEach((job) -> this.store.deleteDeadLetter(job.id()));
	}

	@Test
	void listsDeadLettersNewestFirst() {
		String first = deadLetter(EXHAUST, "a", 1, Map.of());
		String second = deadLetter(POISON, "4111");
		this.client.get()
			.uri("/actuator/deadletters")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.total").isEqualTo(2)
			.jsonPath("$.page").isEqualTo(0)
			.jsonPath("$.offset").isEqualTo(0)
			.jsonPath("$.limit").isEqualTo(20)
			.jsonPath("$.deadLetters[0].id").isEqualTo(second)
			.jsonPath("$.deadLetters[0].queue").isEqualTo(PAYMENTS)
			.jsonPath("$.deadLetters[0].lastError.type").isEqualTo(POISON_ERROR)
			.jsonPath("$.deadLetters[0].lastError.code").isEqualTo("DEAD_LETTER")
			.jsonPath("$.deadLetters[0].enqueuedAt")
			.isEqualTo(this.store.find(second).orElseThrow().enqueuedAt().toString())
			.jsonPath("$.deadLetters[1].id").isEqualTo(first)
			.jsonPath("$.deadLetters[1].type").isEqualTo(EXHAUST)
			.jsonPath("$.deadLetters[1].attempt").isEqualTo(2)
			.jsonPath("$.deadLetters[1].maxAttempts").isEqualTo(2)
			.jsonPath("$.deadLetters[1].lastError.type").isEqualTo(EXHAUST_ERROR)
			.jsonPath("$.deadLetters[1].lastError.attempt").isEqualTo(2);
	}

	@Test
	void filtersByQueueTypeAndLatestErrorType() {
		deadLetter(EXHAUST, "a", 1, Map.of());
		deadLetter(EXHAUST, "b", 2, Map.of());
		deadLetter(POISON, "4111");
		assertTotal("/actuator/deadletters?queue=" + PAYMENTS, 1);
		assertTotal("/actuator/deadletters?queue=default", 2);
		assertTotal("/actuator/deadletters?type=" + EXHAUST, 2);
		assertTotal("/actuator/deadletters?type=" + POISON, 1);
		assertTotal("/actuator/deadletters?errorType=" + EXHAUST_ERROR, 2);
		assertTotal("/actuator/deadletters?errorType=" + POISON_ERROR, 1);
		assertTotal("/actuator/deadletters?queue=" + PAYMENTS + "&type=" + EXHAUST, 0);
		assertTotal("/actuator/deadletters?type=unknown.type", 0);
	}

	@Test
	void filtersByTimeRange() {
		deadLetter(EXHAUST, "a", 1, Map.of());
		String middle = deadLetter(EXHAUST, "b", 2, Map.of());
		deadLetter(EXHAUST, "c", 3, Map.of());
		Instant at = this.store.find(middle).orElseThrow().discardedAt();
		assertTotal("/actuator/deadletters?from=" + at, 2);
		assertTotal("/actuator/deadletters?to=" + at, 1);
		assertTotal("/actuator/deadletters?from=" + at + "&to=" + at.plusNanos(1000), 1);
		assertTotal("/actuator/deadletters?from=" + Instant.now().plusSeconds(60), 0);
		this.client.get()
			.uri("/actuator/deadletters?from={from}&to={to}", at, at.minusSeconds(1))
			.exchange()
			.expectStatus()
			.isBadRequest();
		this.client.get().uri("/actuator/deadletters?from=yesterday").exchange().expectStatus().isBadRequest();
	}

	@Test
	void paginatesWithPageAndSizeOrOffsetAndLimit() {
		for (int i = 0; i < 5; i++) {
			deadLetter(POISON, "card-" + i);
		}
		this.client.get()
			.uri("/actuator/deadletters?page=1&size=2")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.total").isEqualTo(5)
			.jsonPath("$.page").isEqualTo(1)
			.jsonPath("$.offset").isEqualTo(2)
			.jsonPath("$.limit").isEqualTo(2)
			.jsonPath("$.deadLetters.length()").isEqualTo(2);
		this.client.get()
			.uri("/actuator/deadletters?page=2&size=2")
			.exchange()
			.expectBody()
			.jsonPath("$.deadLetters.length()").isEqualTo(1);
		this.client.get()
			.uri("/actuator/deadletters?offset=3&limit=10")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.total").isEqualTo(5)
			.jsonPath("$.page").doesNotExist()
			.jsonPath("$.offset").isEqualTo(3)
			.jsonPath("$.deadLetters.length()").isEqualTo(2);
		this.client.get()
			.uri("/actuator/deadletters?size=1000")
			.exchange()
			.expectBody()
			.jsonPath("$.limit").isEqualTo(200);
		this.client.get().uri("/actuator/deadletters?page=0&limit=2").exchange().expectStatus().isBadRequest();
		this.client.get().uri("/actuator/deadletters?size=0").exchange().expectStatus().isBadRequest();
		this.client.get().uri("/actuator/deadletters?offset=-1").exchange().expectStatus().isBadRequest();
	}

	@Test
	void showsOneDeadLetterWithArgsMetaErrorHistoryAndPolicy() {
		String id = deadLetter(EXHAUST, "order-7", 42, Map.of("nested", List.of(1, 2)));
		String createdAt = this.store.find(id).orElseThrow().createdAt().toString();
		this.client.get()
			.uri("/actuator/deadletters/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.id").isEqualTo(id)
			.jsonPath("$.type").isEqualTo(EXHAUST)
			.jsonPath("$.queue").isEqualTo("default")
			.jsonPath("$.state").isEqualTo("discarded")
			.jsonPath("$.attempt").isEqualTo(2)
			.jsonPath("$.args[0]").isEqualTo("order-7")
			.jsonPath("$.args[1]").isEqualTo(42)
			.jsonPath("$.args[2].nested[1]").isEqualTo(2)
			.jsonPath("$.meta").isMap()
			.jsonPath("$.errors.length()").isEqualTo(2)
			.jsonPath("$.errors[0].attempt").isEqualTo(1)
			.jsonPath("$.errors[0].type").isEqualTo(EXHAUST_ERROR)
			.jsonPath("$.errors[0].message").value(matching(containsString("order-7")))
			.jsonPath("$.errors[0].code").isEqualTo("RETRY")
			.jsonPath("$.errors[1].attempt").isEqualTo(2)
			.jsonPath("$.errors[1].timestamp").value(matching(containsString("T")))
			.jsonPath("$.retryPolicy.max_attempts").isEqualTo(2)
			.jsonPath("$.retryPolicy.initial_interval").isEqualTo("PT0.01S")
			.jsonPath("$.retryPolicy.jitter").isEqualTo(false)
			.jsonPath("$.retryPolicy.on_exhaustion").isEqualTo("dead_letter")
			.jsonPath("$.createdAt").isEqualTo(createdAt)
			.jsonPath("$.enqueuedAt").isEqualTo(createdAt)
			.jsonPath("$.deadLetteredAt").value(matching(containsString("T")));
	}

	@Test
	void unknownDeadLetterIsNotFound() {
		this.client.get().uri("/actuator/deadletters/{id}", "0190b6f0-0000-7000-8000-00000000dead").exchange()
			.expectStatus()
			.isNotFound();
		String completed = this.ojs.enqueue(OK, "x");
		await().atMost(TIMEOUT).until(() -> this.store.find(completed).orElseThrow().completedAt() != null);
		this.client.get().uri("/actuator/deadletters/{id}", completed).exchange().expectStatus().isNotFound();
	}

	@Test
	void summarisesTheDeadLetterQueue() {
		String oldest = deadLetter(EXHAUST, "a", 1, Map.of());
		deadLetter(POISON, "1");
		String newest = deadLetter(POISON, "2");
		this.client.get()
			.uri("/actuator/deadletters/stats")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.total").isEqualTo(3)
			.jsonPath("$.byQueue.default").isEqualTo(1)
			.jsonPath("$.byQueue.payments").isEqualTo(2)
			.jsonPath("$.byErrorType['" + EXHAUST_ERROR + "']").isEqualTo(1)
			.jsonPath("$.byErrorType['" + POISON_ERROR + "']").isEqualTo(2)
			.jsonPath("$.oldest").isEqualTo(this.store.find(oldest).orElseThrow().discardedAt().toString())
			.jsonPath("$.newest").isEqualTo(this.store.find(newest).orElseThrow().discardedAt().toString());
	}

	@Test
	void retriesOneDeadLetterWithTheSameIdPolicyAndHistory() {
		String id = deadLetter(EXHAUST, "again", 1, Map.of());
		Job before = this.store.find(id).orElseThrow();
		this.client.post()
			.uri("/actuator/deadletters/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.retried").isEqualTo(1);
		// The worker runs it again from attempt 1: two more failed attempts, then back in the
		// dead letter queue with the whole history.
		await().atMost(TIMEOUT).until(() -> this.store.find(id).orElseThrow().errors().size() == 4);
		await().atMost(TIMEOUT).until(() -> this.store.find(id).orElseThrow().deadLetter());
		Job after = this.store.find(id).orElseThrow();
		assertThat(after.errors()).extracting(ErrorEntry::attempt).containsExactly(1, 2, 1, 2);
		assertThat(after.errors().subList(0, 2)).isEqualTo(before.errors());
		assertThat(after.retryPolicy()).isEqualTo(before.retryPolicy());
		assertThat(after.createdAt()).isEqualTo(before.createdAt());
		// replayed: put in line again after it was created
		assertThat(before.enqueuedAt()).isEqualTo(before.createdAt());
		assertThat(after.enqueuedAt()).isAfter(before.enqueuedAt());
		this.client.get()
			.uri("/actuator/deadletters/{id}", id)
			.exchange()
			.expectBody()
			.jsonPath("$.createdAt").isEqualTo(before.createdAt().toString())
			.jsonPath("$.enqueuedAt").isEqualTo(after.enqueuedAt().toString());
		this.client.post()
			.uri("/actuator/deadletters/{id}", "0190b6f0-0000-7000-8000-00000000dead")
			.exchange()
			.expectStatus()
			.isNotFound();
	}

	@Test
	void bulkRetryWithoutConfirmationIsRejectedAndChangesNothing() {
		deadLetter(POISON, "1");
		deadLetter(POISON, "2");
		deadLetter(EXHAUST, "a", 1, Map.of());
		this.client.post()
			.uri("/actuator/deadletters")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("queue", PAYMENTS))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.error").isEqualTo("confirmation_required")
			.jsonPath("$.message").value(matching(containsString("confirm=true")))
			.jsonPath("$.matching").isEqualTo(2);
		this.client.post()
			.uri("/actuator/deadletters?confirm=false")
			.contentType(MediaType.APPLICATION_JSON)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.matching").isEqualTo(3);
		// A write with parameters besides the id needs the JSON content type even when they
		// are all in the query string (docs/actuator.md); the retry of one id does not.
		this.client.post()
			.uri("/actuator/deadletters?confirm=true")
			.exchange()
			.expectStatus()
			.isEqualTo(415);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(3);
	}

	@Test
	void bulkRetryWithConfirmationRetriesEveryMatchingDeadLetter() {
		String first = deadLetter(POISON, "1");
		String second = deadLetter(POISON, "2");
		String other = deadLetter(EXHAUST, "a", 1, Map.of());
		this.client.post()
			.uri("/actuator/deadletters")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("queue", PAYMENTS, "confirm", true))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.retried").isEqualTo(2);
		// Each ran once more and was dead-lettered again by its handler.
		for (String id : List.of(first, second)) {
			await().atMost(TIMEOUT).until(() -> {
				Job job = this.store.find(id).orElseThrow();
				return job.deadLetter() && job.errors().size() == 2;
			});
		}
		assertThat(this.store.find(other).orElseThrow().errors()).hasSize(2);
		this.client.post()
			.uri("/actuator/deadletters?confirm=true&type=" + EXHAUST)
			.contentType(MediaType.APPLICATION_JSON)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.retried").isEqualTo(1);
		await().atMost(TIMEOUT).until(() -> {
			Job job = this.store.find(other).orElseThrow();
			return job.deadLetter() && job.errors().size() == 4;
		});
	}

	@Test
	void deletesOneDeadLetter() {
		String id = deadLetter(POISON, "gone");
		this.client.delete().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isNoContent();
		assertThat(this.store.find(id)).isEmpty();
		this.client.get().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isNotFound();
		this.client.delete().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isNotFound();
	}

	@Test
	void ojsEndpointShowsCountsHandlersAndWorker() {
		deadLetter(POISON, "1");
		this.client.get()
			.uri("/actuator/ojs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.queues.payments.dead_letter").value(matching(greaterThanOrEqualTo(1)))
			.jsonPath("$.queues.payments").value(matching(hasKey("available")))
			.jsonPath("$.handlers[*].type").value(matching(hasItem(EXHAUST)))
			.jsonPath("$.handlers[?(@.type == '" + EXHAUST + "')].retryPolicy.max_attempts").value(matching(hasItem(2)))
			.jsonPath("$.handlers[?(@.type == '" + EXHAUST + "')].retryPolicy.on_exhaustion")
			.value(matching(hasItem("dead_letter")))
			.jsonPath("$.handlers[?(@.type == '" + POISON + "')].queue").value(matching(hasItem(PAYMENTS)))
			.jsonPath("$.handlers[?(@.type == '" + OK + "')].retryPolicy.max_attempts").value(matching(hasItem(3)))
			.jsonPath("$.worker.mode").isEqualTo("worker")
			.jsonPath("$.worker.running").isEqualTo(true)
			.jsonPath("$.worker.types").value(matching(hasItem(POISON)))
			.jsonPath("$.worker.queues").value(matching(hasKey(PAYMENTS)));
	}

	@Test
	void pausesAndResumesAQueueAdminApi63And64() {
		this.client.post()
			.uri("/actuator/ojs/queues/{queue}/pause", "httpidle")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.name").isEqualTo("httpidle")
			.jsonPath("$.paused").isEqualTo(true)
			.jsonPath("$.pausedAt").isNotEmpty();
		assertThat(this.store.queueStates()).filteredOn((state) -> state.name().equals("httpidle"))
			.singleElement()
			.satisfies((state) -> assertThat(state.paused()).isTrue());
		// a paused queue without jobs is listed, with zero counts
		this.client.get()
			.uri("/actuator/ojs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.pausedQueues.httpidle").isNotEmpty()
			.jsonPath("$.queues.httpidle.available").isEqualTo(0);
		this.client.post()
			.uri("/actuator/ojs/queues/{queue}/resume", "httpidle")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.paused").isEqualTo(false)
			.jsonPath("$.pausedAt").doesNotExist();
		this.client.get()
			.uri("/actuator/ojs")
			.exchange()
			.expectBody()
			.jsonPath("$.pausedQueues.httpidle").doesNotExist();
	}

	@Test
	void queueWritesWithAnotherActionOrATooLongNameAreBadRequests() {
		this.client.post().uri("/actuator/ojs/queues/httpidle/drain").exchange().expectStatus().isBadRequest();
		this.client.post().uri("/actuator/ojs/other/httpidle/pause").exchange().expectStatus().isBadRequest();
		this.client.post()
			.uri("/actuator/ojs/queues/{queue}/pause", "q".repeat(256))
			.exchange()
			.expectStatus()
			.isBadRequest();
		assertThat(this.store.queueStates()).noneMatch((state) -> state.name().startsWith("qqq"));
	}

	@Test
	void healthIsUpWithoutCounts() {
		this.client.get()
			.uri("/actuator/health/ojs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status").isEqualTo("UP")
			.jsonPath("$.details.jobs").doesNotExist();
	}

	@Test
	void metricsCountJobOutcomes() {
		String completed = this.ojs.enqueue(OK, "m");
		String flaky = this.ojs.enqueue(FLAKY, "metrics-" + System.nanoTime());
		String discarded = this.ojs.enqueue(DISCARD, "m");
		deadLetter(EXHAUST, "m", 1, Map.of());
		await().atMost(TIMEOUT).until(() -> this.store.find(completed).orElseThrow().completedAt() != null
				&& this.store.find(flaky).orElseThrow().completedAt() != null
				&& this.store.find(discarded).orElseThrow().discardedAt() != null);
		assertCount(JobMetricsListener.COMPLETED, OK);
		assertCount(JobMetricsListener.COMPLETED, FLAKY);
		assertCount(JobMetricsListener.RETRIED, FLAKY);
		assertCount(JobMetricsListener.FAILED, FLAKY);
		assertCount(JobMetricsListener.DISCARDED, DISCARD);
		assertCount(JobMetricsListener.FAILED, DISCARD);
		assertCount(JobMetricsListener.DEAD_LETTERED, EXHAUST);
		assertCount(JobMetricsListener.RETRIED, EXHAUST);
		assertCount(JobMetricsListener.DURATION, OK);
		assertCount(JobMetricsListener.RETRY_DELAY, FLAKY);
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=type:{type}&tag=outcome:dead_lettered", JobMetricsListener.DURATION,
					EXHAUST)
			.exchange()
			.expectStatus()
			.isOk();
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=queue:payments&tag=state:available", QueueDepthMetrics.DEPTH)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].statistic").isEqualTo("VALUE");
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=queue:default&tag=state:discarded", QueueDepthMetrics.DEPTH)
			.exchange()
			.expectBody()
			.jsonPath("$.measurements[0].value").value(matching(greaterThanOrEqualTo(1.0)));
		// issue 27: dead letters have their own state tag, as on /actuator/ojs
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=queue:default&tag=state:dead_letter", QueueDepthMetrics.DEPTH)
			.exchange()
			.expectBody()
			.jsonPath("$.measurements[0].value").value(matching(greaterThanOrEqualTo(1.0)));
	}

	private void assertCount(String metric, String type) {
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=type:{type}", metric, type)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[?(@.statistic == 'COUNT')].value")
			.value(matching(hasItem(greaterThanOrEqualTo(1.0))));
	}

	private void assertTotal(String uri, int total) {
		this.client.get().uri(uri).exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(total);
	}

	private String deadLetter(String type, Object... args) {
		return ActuatorTestContexts.deadLetter(this.ojs, this.store, type, args);
	}

}
