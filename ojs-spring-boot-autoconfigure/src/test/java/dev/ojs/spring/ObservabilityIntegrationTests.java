package dev.ojs.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.test.simple.SimpleSpan;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

import dev.ojs.job.JobState;
import dev.ojs.spring.IntegrationJobs.EventRecorder;
import dev.ojs.spring.ObservabilityTestConfiguration.ObservedJobs;
import dev.ojs.spring.ObservabilityTestConfiguration.RecordingJobListener;
import dev.ojs.spring.ObservabilityTestConfiguration.Seen;
import dev.ojs.spring.autoconfigure.OjsProperties;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.testsupport.TestTracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Full runs of the public listener API, the observations with W3C trace context in the
 * job's {@code meta} (ojs-distributed-tracing.md §4.1, §5.1, §6.1 DT-001/DT-002, §6.2
 * DT-003, §8.3), the MDC of running handlers and the enqueue call shapes. Subclasses choose
 * the database.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, ObservabilityTestConfiguration.class })
@DirtiesContext
abstract class ObservabilityIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private OjsTemplate template;

	@Autowired
	private TestTracing tracing;

	@Autowired
	private ObservedJobs jobs;

	@Autowired
	private RecordingJobListener listener;

	@Autowired
	private EventRecorder applicationEvents;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private OjsProperties properties;

	@Test
	void oneTraceSpansTheRequestTheEnqueueAndEveryAttempt() {
		Observation request = Observation.start("http.server.requests", this.tracing.registry());
		String id;
		try (Observation.Scope scope = request.openScope()) {
			id = this.template.enqueue("it.traced", 1);
		}
		request.stop();
		JobInfo job = awaitTerminal(id);
		assertThat(job.state()).isEqualTo(JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(2);
		SimpleSpan requestSpan = this.tracing.spans("http.server.requests").get(0);
		String traceId = requestSpan.getTraceId();
		List<SimpleSpan> enqueues = spansOf("default enqueue", id, 1);
		SimpleSpan enqueue = enqueues.get(0);
		assertThat(enqueue.getKind()).isEqualTo(Span.Kind.PRODUCER);
		assertThat(enqueue.getParentId()).isEqualTo(requestSpan.getSpanId());
		// DT-001, DT-003: the stored job carries the enqueue's context, through the retry
		assertThat(meta(job)).containsEntry("traceparent", TestTracing.traceparent(traceId, enqueue.getSpanId()))
			.containsEntry("tracestate", TestTracing.TRACESTATE);
		// DT-002, §8.3: a consumer span per attempt, in the trace, under the enqueue span
		List<SimpleSpan> attempts = spansOf("default process", id, 2);
		assertThat(attempts).allSatisfy((span) -> {
			assertThat(span.getKind()).isEqualTo(Span.Kind.CONSUMER);
			assertThat(span.getTraceId()).isEqualTo(traceId);
			assertThat(span.getParentId()).isEqualTo(enqueue.getSpanId());
			assertThat(span.getTags()).containsEntry("messaging.system", "ojs")
				.containsEntry("ojs.job.type", "it.traced")
				.containsEntry("ojs.job.queue", "default");
		});
		assertThat(attempts).extracting((span) -> span.getTags().get("ojs.job.attempt") + ":"
				+ span.getTags().get("ojs.job.outcome"))
			.containsExactlyInAnyOrder("1:failure", "2:success");
		// the handler ran inside its span, with the job in the MDC
		assertThat(this.jobs.seen(id)).extracting(Seen::traceId).containsExactly(traceId, traceId);
		assertThat(this.jobs.seen(id)).extracting(Seen::mdc)
			.containsExactly(Map.of("ojs.job.id", id, "ojs.job.type", "it.traced", "ojs.job.attempt", "1"),
					Map.of("ojs.job.id", id, "ojs.job.type", "it.traced", "ojs.job.attempt", "2"));
		TestObservationRegistryAssert.assertThat(this.tracing.registry())
			.hasAnObservation((observation) -> observation.hasNameEqualTo("ojs.job.process")
				.hasLowCardinalityKeyValue("ojs.job.type", "it.traced")
				.hasLowCardinalityKeyValue("ojs.job.queue", "default")
				.hasLowCardinalityKeyValue("ojs.job.outcome", "failure")
				.hasHighCardinalityKeyValue("ojs.job.id", id)
				.hasHighCardinalityKeyValue("ojs.job.attempt", "1"))
			.hasAnObservation((observation) -> observation.hasNameEqualTo("ojs.job.enqueue")
				.hasLowCardinalityKeyValue("ojs.job.type", "it.traced")
				.hasHighCardinalityKeyValue("ojs.job.id", id));
	}

	@Test
	void listenerBeansGetThePublicEventsOfTheOutcomesTheyOverride() {
		String id = this.template.enqueue("it.traced", 1);
		awaitTerminal(id);
		List<OjsJobEvent> events = await().atMost(TIMEOUT)
			.until(() -> this.listener.of(id), (received) -> received.size() == 2);
		assertThat(events).map(Object::getClass).containsExactly(JobRetryingEvent.class, JobCompletedEvent.class);
		assertThat(events.get(0).getAttempt()).isEqualTo(1);
		assertThat(((JobRetryingEvent) events.get(0)).getError().message()).isEqualTo("attempt 1");
		assertThat(events.get(1).getJob().type()).isEqualTo("it.traced");
		// one event per outcome: the application event is the same object
		List<OjsJobEvent> published = await().atMost(TIMEOUT)
			.until(() -> this.applicationEvents.of(id), (received) -> received.size() == 2);
		assertThat(published.get(0)).isSameAs(events.get(0));
		assertThat(published.get(1)).isSameAs(events.get(1));
		// a discard is published as an application event, but this listener does not take it
		String discarded = this.template.enqueue("it.exhausted");
		awaitTerminal(discarded);
		await().atMost(TIMEOUT)
			.until(() -> this.applicationEvents.of(discarded), (received) -> received.size() == 2);
		assertThat(this.listener.of(discarded)).map(Object::getClass).containsExactly(JobRetryingEvent.class);
	}

	@Test
	void jobsWithoutArgumentsRunFromEveryShape() {
		List<String> ids = new ArrayList<>();
		ids.add(this.template.enqueue("it.no_args"));
		ids.add(this.template.enqueue("it.no_args", JobOptions.builder().priority(3).build()));
		ids.addAll(this.template.enqueueAll("it.no_args", Collections.nCopies(2, List.of()), JobOptions.none()));
		for (String id : ids) {
			JobInfo job = awaitTerminal(id);
			assertThat(job.state()).isEqualTo(JobState.COMPLETED);
			assertThat(job.argsJson()).isEqualTo("[]");
			assertThat(this.jobs.seen(id)).hasSize(1);
		}
		assertThat(this.template.getJob(ids.get(1)).orElseThrow().priority()).isEqualTo(3);
	}

	@Test
	void aListIsOneArgumentOnlyWhenSaidSoAndAnAmbiguousCallWritesNothing() {
		String id = this.template.enqueue("it.list_arg", List.of(List.of("a", "b")), JobOptions.none());
		assertThat(awaitTerminal(id).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.jobs.seen(id)).extracting(Seen::argument).containsExactly(List.of("a", "b"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueue("it.list_arg", List.of("a", "b")))
			.withMessageContaining("List.of(list)");
		Integer stored = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.properties.getJdbc().getTablePrefix()
				+ "jobs WHERE type = ?", Integer.class, "it.list_arg");
		assertThat(stored).isEqualTo(1);
	}

	/** The spans of this name and job, once there are {@code count}. */
	private List<SimpleSpan> spansOf(String name, String jobId, int count) {
		return await().atMost(TIMEOUT)
			.until(() -> this.tracing.spans(name)
				.stream()
				.filter((span) -> jobId.equals(span.getTags().get("ojs.job.id")))
				.toList(), (spans) -> spans.size() == count);
	}

	private static Map<String, Object> meta(JobInfo job) {
		return new JsonMapper().readValue(job.metaJson(), new TypeReference<Map<String, Object>>() {
		});
	}

	private JobInfo awaitTerminal(String id) {
		return await().atMost(TIMEOUT)
			.until(() -> this.template.getJob(id).orElseThrow(), (job) -> job.state().isTerminal());
	}

}
