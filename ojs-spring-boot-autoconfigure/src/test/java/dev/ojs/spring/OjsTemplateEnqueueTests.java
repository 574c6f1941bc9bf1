package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.test.simple.SimpleSpan;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.testsupport.TestTracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for the call shapes of {@link OjsTemplate}'s enqueues, and their observation
 * (ojs-distributed-tracing.md §4.1, §5.1, §6.1 DT-001).
 */
class OjsTemplateEnqueueTests {

	private final JobStore store = mock(JobStore.class);

	private final List<NewJob> inserted = new ArrayList<>();

	private final OjsTemplate template = new OjsTemplate(this.store, mock(OjsJobRegistry.class), RetryPolicy.DEFAULT,
			new JsonMapper());

	OjsTemplateEnqueueTests() {
		given(this.store.insert(anyList())).willAnswer((invocation) -> {
			List<NewJob> jobs = invocation.getArgument(0);
			List<String> ids = new ArrayList<>();
			for (NewJob job : jobs) {
				this.inserted.add(job);
				ids.add("id-" + this.inserted.size());
			}
			return ids;
		});
	}

	@Test
	void typeAloneIsAJobWithoutArguments() {
		this.template.enqueue("t");
		assertThat(argsJson()).containsExactly("[]");
	}

	@Test
	void typeAndOptionsIsAJobWithoutArgumentsWithThoseOptions() {
		this.template.enqueue("t", JobOptions.builder().queue("q").build());
		assertThat(this.inserted).singleElement().satisfies((job) -> {
			assertThat(job.argsJson()).isEqualTo("[]");
			assertThat(job.queue()).isEqualTo("q");
		});
	}

	@Test
	void expiresAtAndExpiresInSetTheJobsExpiryL2Ttl001() {
		Instant at = Instant.parse("2030-01-01T00:00:00Z");
		this.template.enqueue("t", JobOptions.builder().expiresAt(at).build());
		Instant before = Instant.now();
		this.template.enqueue("t", JobOptions.builder().expiresIn(Duration.ofMinutes(10)).build());
		this.template.enqueue("t");
		assertThat(this.inserted.get(0).expiresAt()).isEqualTo(at);
		assertThat(this.inserted.get(1).expiresAt()).isBetween(before.plus(Duration.ofMinutes(10)),
				Instant.now().plus(Duration.ofMinutes(10)));
		assertThat(this.inserted.get(2).expiresAt()).isNull();
	}

	@Test
	void expiryBeforeTheRunTimeIsRejected() {
		Instant runAt = Instant.parse("2030-01-01T00:00:00Z");
		assertThatExceptionOfType(OjsValidationException.class).isThrownBy(() -> this.template.enqueue("t",
				JobOptions.builder().runAt(runAt).expiresAt(runAt.minusSeconds(1)).build()))
			.withMessage(JobOptionRules.EXPIRES_AT_MESSAGE)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("expires_at"));
		assertThat(this.inserted).isEmpty();
	}

	/** Issue 27: the options' rules are the service's, the same over HTTP (ojs-core §6.2 for pending). */
	@Test
	void badOptionsAreRefusedNamingTheOption() {
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.template.enqueue("t", JobOptions.builder().priority(101).build()))
			.withMessage(JobOptionRules.PRIORITY_MESSAGE)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("priority"));
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.template.enqueue("t", JobOptions.builder().tags(java.util.Arrays.asList("a", null)).build()))
			.withMessage(JobOptionRules.TAGS_MESSAGE);
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.template.enqueue("t",
					JobOptions.builder().pending(true).runAt(Instant.parse("2030-01-01T00:00:00Z")).build()))
			.withMessage(JobOptionRules.PENDING_MESSAGE)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("pending"));
		assertThat(this.inserted).isEmpty();
		this.template.enqueue("t", JobOptions.builder().priority(-100).tags(List.of("a")).pending(true).build());
		assertThat(this.inserted).hasSize(1);
	}

	@Test
	void eachVarargIsOneArgumentAndNullIsJsonNull() {
		this.template.enqueue("t", "a", 1, null, Map.of("k", true));
		this.template.enqueue("t", (Object) null);
		assertThat(argsJson()).containsExactly("[\"a\",1,null,{\"k\":true}]", "[null]");
	}

	@Test
	void aSingleNonCollectionVarargIsOneArgument() {
		this.template.enqueue("t", Map.of("k", 1));
		this.template.enqueue("t", (Object) new int[] { 1, 2 });
		assertThat(argsJson()).containsExactly("[{\"k\":1}]", "[[1,2]]");
	}

	@Test
	void aSingleCollectionVarargIsAmbiguousAndTheErrorNamesBothFixes() {
		for (Object collection : List.of(List.of("a", "b"), Set.of("a"), new ArrayList<>())) {
			assertThatIllegalArgumentException().isThrownBy(() -> this.template.enqueue("t", collection))
				.withMessageContaining("ambiguous")
				.withMessageContaining("enqueue(type, list, JobOptions.none())")
				.withMessageContaining("enqueue(type, List.of(list), JobOptions.none())");
		}
		assertThat(this.inserted).isEmpty();
	}

	@Test
	void jobOptionsAmongVarargsIsRejectedWithTheFix() {
		JobOptions options = JobOptions.builder().queue("q").build();
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.enqueue("t", "a", options))
			.withMessageContaining("enqueue(type, List.of(arguments...), options)")
			.withMessageContaining("enqueue(type, options)");
		assertThat(this.inserted).isEmpty();
	}

	@Test
	void aListWithOptionsIsTheArgumentList() {
		this.template.enqueue("t", List.of("a", 2), JobOptions.none());
		this.template.enqueue("t", List.of(List.of("a", 2)), JobOptions.none());
		this.template.enqueue("t", List.of(), JobOptions.none());
		this.template.enqueue("t", Arrays.asList("a", null), JobOptions.none());
		assertThat(argsJson()).containsExactly("[\"a\",2]", "[[\"a\",2]]", "[]", "[\"a\",null]");
	}

	@Test
	void enqueueAllTakesOneArgumentListPerJobAndEmptyListsAreJobsWithoutArguments() {
		List<String> ids = this.template.enqueueAll("t", List.of(List.of("a"), List.of(), List.of(List.of(1))),
				JobOptions.none());
		assertThat(ids).hasSize(3);
		this.template.enqueueAll("t", Collections.nCopies(2, List.of()), JobOptions.none());
		assertThat(argsJson()).containsExactly("[\"a\"]", "[]", "[[1]]", "[]", "[]");
		assertThat(this.template.enqueueAll("t", List.of(), JobOptions.none())).isEmpty();
		assertThat(this.inserted).hasSize(5);
	}

	@Test
	void nullsThatAreNotArgumentsAreRejectedWithTheFix() {
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> this.template.enqueue("t", (Object[]) null))
			.withMessageContaining("enqueue(type)");
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> this.template.enqueue("t", (List<?>) null, JobOptions.none()))
			.withMessageContaining("List.of()");
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> this.template.enqueue("t", List.of("a"), null))
			.withMessageContaining("JobOptions.none()");
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> this.template.enqueue("t", (JobOptions) null))
			.withMessageContaining("JobOptions.none()");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueueAll("t", Arrays.asList(List.of("a"), null), JobOptions.none()))
			.withMessageContaining("argsList[1]")
			.withMessageContaining("List.of()");
		assertThat(this.inserted).isEmpty();
	}

	@Test
	void withoutAnObservationRegistryTheMetaIsTheCallersOnly() {
		this.template.enqueue("t", List.of(), JobOptions.builder().meta("tenant", "acme").build());
		assertThat(this.inserted.get(0).metaJson()).isEqualTo("{\"tenant\":\"acme\"}");
	}

	@Test
	void enqueueIsObservedWithTypeQueueAndIdAndStoresTheTraceContextInMeta() {
		TestTracing tracing = new TestTracing();
		this.template.setObservationRegistry(tracing.registry());
		Observation request = Observation.start("http.server.requests", tracing.registry());
		String id;
		try (Observation.Scope scope = request.openScope()) {
			id = this.template.enqueue("t", List.of("a"), JobOptions.builder().meta("tenant", "acme").build());
		}
		request.stop();
		SimpleSpan requestSpan = tracing.spans("http.server.requests").get(0);
		SimpleSpan enqueue = tracing.spans("default enqueue").get(0);
		// DT-001: the enqueue span is a child of the request, its context is in the job's meta
		assertThat(enqueue.getKind()).isEqualTo(Span.Kind.PRODUCER);
		assertThat(enqueue.getTraceId()).isEqualTo(requestSpan.getTraceId());
		assertThat(enqueue.getParentId()).isEqualTo(requestSpan.getSpanId());
		assertThat(enqueue.getTags()).containsEntry("messaging.system", "ojs")
			.containsEntry("ojs.job.type", "t")
			.containsEntry("ojs.job.queue", "default")
			.containsEntry("ojs.job.id", id);
		Map<String, Object> meta = new JsonMapper().readValue(this.inserted.get(0).metaJson(),
				new tools.jackson.core.type.TypeReference<Map<String, Object>>() {
				});
		assertThat(meta).containsEntry("tenant", "acme")
			.containsEntry("traceparent", TestTracing.traceparent(requestSpan.getTraceId(), enqueue.getSpanId()))
			.containsEntry("tracestate", TestTracing.TRACESTATE);
		TestObservationRegistryAssert.assertThat(tracing.registry())
			.hasObservationWithNameEqualTo("ojs.job.enqueue")
			.that()
			.hasLowCardinalityKeyValue("ojs.job.type", "t")
			.hasLowCardinalityKeyValue("ojs.job.queue", "default")
			.hasHighCardinalityKeyValue("ojs.job.id", id)
			.hasBeenStopped();
	}

	@Test
	void enqueueAllIsOneBatchObservationAndEveryJobCarriesItsContext() {
		TestTracing tracing = new TestTracing();
		this.template.setObservationRegistry(tracing.registry());
		this.template.enqueueAll("t", List.of(List.of("a"), List.of("b")), JobOptions.builder().queue("q").build());
		SimpleSpan batch = tracing.spans("q enqueue_batch").get(0);
		assertThat(batch.getTags()).containsEntry("ojs.job.queue", "q").doesNotContainKey("ojs.job.id");
		String traceparent = TestTracing.traceparent(batch.getTraceId(), batch.getSpanId());
		assertThat(this.inserted).hasSize(2)
			.allSatisfy((job) -> assertThat(job.metaJson()).contains("\"traceparent\":\"" + traceparent + "\""));
	}

	@Test
	void aRejectedEnqueueIsAnObservedErrorAndWritesNothing() {
		TestTracing tracing = new TestTracing();
		this.template.setObservationRegistry(tracing.registry());
		assertThatExceptionOfType(RetryPolicyValidationException.class).isThrownBy(() -> this.template
			.enqueue("t", List.of(), JobOptions.builder().retry("{\"max_attempts\": -1}").build()));
		assertThat(this.inserted).isEmpty();
		TestObservationRegistryAssert.assertThat(tracing.registry())
			.hasObservationWithNameEqualTo("ojs.job.enqueue")
			.that()
			.hasLowCardinalityKeyValue("ojs.job.queue", "unknown")
			.hasError();
	}

	/**
	 * Issue 27: the type and queue rule of every edge (decision 6, L0-ENV-003, L0-ENV-004),
	 * and the sizes of args and meta, refused naming the field before anything is written.
	 */
	@Test
	void namesAndSizesAreCheckedBeforeAnythingIsWritten() {
		this.template.setSizeLimits(new JobSizeLimits(16, 12));
		assertRefused(() -> this.template.enqueue("Email.send"), "type", OjsNames.TYPE_MESSAGE);
		assertRefused(() -> this.template.enqueue("a..b"), "type", OjsNames.TYPE_MESSAGE);
		for (String queue : List.of("Mail", "", "-mail", "my queue", "q".repeat(256))) {
			assertRefused(() -> this.template.enqueue("t", JobOptions.builder().queue(queue).build()), "queue",
					OjsNames.QUEUE_MESSAGE);
		}
		assertRefused(() -> this.template.enqueue("t", "x".repeat(13)), "args",
				"The 'args' field is larger than the limit of 16 bytes of JSON.");
		assertRefused(() -> this.template.enqueueAll("t", List.of(List.of(), List.of("é".repeat(7))), JobOptions.none()),
				"args[1]", "The 'args[1]' field is larger than the limit of 16 bytes of JSON.");
		assertRefused(() -> this.template.enqueue("t", JobOptions.builder().meta("k", "1234567").build()), "meta",
				"The 'meta' field is larger than the limit of 12 bytes of JSON.");
		assertRefused(() -> this.template.enqueueBatch(List.of(new OjsTemplate.Enqueue("t", List.of(), JobOptions.none()),
				new OjsTemplate.Enqueue("t", List.of(), JobOptions.builder().queue("Mail").build()))), "jobs[1].queue",
				OjsNames.QUEUE_MESSAGE);
		assertThat(this.inserted).isEmpty();
		this.template.enqueue("billing.invoice_eu-2", JobOptions.builder().queue("billing_eu." + "q".repeat(240)).build());
		this.template.enqueue("t", "x".repeat(12));
		assertThat(this.inserted).hasSize(2);
	}

	private static void assertRefused(Runnable enqueue, String field, String message) {
		assertThatExceptionOfType(OjsValidationException.class).isThrownBy(enqueue::run)
			.withMessage(message)
			.satisfies((ex) -> assertThat(ex.getDetails()).containsEntry("field", field));
	}

	private List<String> argsJson() {
		return this.inserted.stream().map(NewJob::argsJson).toList();
	}

}
