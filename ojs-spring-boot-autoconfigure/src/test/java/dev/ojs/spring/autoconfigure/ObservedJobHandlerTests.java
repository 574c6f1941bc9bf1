package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.test.simple.SimpleSpan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.spring.observation.DefaultJobProcessObservationConvention;
import dev.ojs.spring.observation.JobProcessContext;
import dev.ojs.testsupport.StoredJobs;
import dev.ojs.testsupport.TestTracing;
import dev.ojs.worker.JobHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ObservedJobHandler}: the MDC while a handler runs, and the process
 * observation continuing the trace stored at enqueue (ojs-distributed-tracing.md §4.1, §5,
 * §6.1 DT-002, §8.3).
 */
class ObservedJobHandlerTests {

	private static final String TRACE_ID = "463ac35c9f6413ad";

	private static final String ENQUEUE_SPAN_ID = "a2fb4a1d1a96d312";

	private static final String WORKFLOW_ID = "019539a4-0001-7000-8000-000000000001";

	private final Job job = StoredJobs.job("mail.send")
		.queue("mail")
		.attempt(2)
		.meta("{\"tenant\":\"acme\",\"n\":1,\"traceparent\":\"" + TestTracing.traceparent(TRACE_ID, ENQUEUE_SPAN_ID)
				+ "\",\"tracestate\":\"" + TestTracing.TRACESTATE + "\"}")
		.build();

	private final TestTracing tracing = new TestTracing();

	@AfterEach
	void clearMdc() {
		MDC.clear();
	}

	@Test
	void mdcHoldsTheJobWhileTheHandlerRunsAndNotAfter() throws Exception {
		Map<String, String> seen = new HashMap<>();
		handler((attempt) -> seen.putAll(MDC.getCopyOfContextMap()), ObservationRegistry.NOOP)
			.handle(new TestJobs.TestAttempt(this.job));
		assertThat(seen).containsEntry("ojs.job.id", this.job.id())
			.containsEntry("ojs.job.type", "mail.send")
			.containsEntry("ojs.job.attempt", "2");
		assertThat(MDC.getCopyOfContextMap()).doesNotContainKeys("ojs.job.id", "ojs.job.type", "ojs.job.attempt");
	}

	@Test
	void mdcIsClearedWhenTheHandlerThrows() {
		MDC.put("request", "r1");
		assertThatIllegalStateException().isThrownBy(() -> handler((attempt) -> {
			assertThat(MDC.get("ojs.job.id")).isEqualTo(this.job.id());
			throw new IllegalStateException("boom");
		}, this.tracing.registry()).handle(new TestJobs.TestAttempt(this.job)));
		assertThat(MDC.getCopyOfContextMap()).containsOnlyKeys("request");
	}

	@Test
	void executionContinuesTheTraceOfTheEnqueueWithDocumentedKeys() throws Exception {
		List<String> currentTrace = new ArrayList<>();
		handler((attempt) -> currentTrace.add(this.tracing.tracer().currentSpan().context().traceId()),
				this.tracing.registry())
			.handle(new TestJobs.TestAttempt(this.job));
		SimpleSpan span = this.tracing.spans("mail process").get(0);
		assertThat(span.getKind()).isEqualTo(Span.Kind.CONSUMER);
		assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
		assertThat(span.getParentId()).isEqualTo(ENQUEUE_SPAN_ID);
		assertThat(currentTrace).containsExactly(TRACE_ID);
		assertThat(span.getTags()).containsEntry("messaging.system", "ojs")
			.containsEntry("ojs.job.type", "mail.send")
			.containsEntry("ojs.job.queue", "mail")
			.containsEntry("ojs.job.outcome", "success")
			.containsEntry("ojs.job.id", this.job.id())
			.containsEntry("ojs.job.attempt", "2");
		TestObservationRegistryAssert.assertThat(this.tracing.registry())
			.hasObservationWithNameEqualTo(DefaultJobProcessObservationConvention.NAME)
			.that()
			.isInstanceOfSatisfying(JobProcessContext.class,
					(context) -> assertThat(context.getCarrier()).containsEntry("tenant", "acme")
						.containsEntry("tracestate", TestTracing.TRACESTATE)
						.doesNotContainKey("n"))
			.hasLowCardinalityKeyValue("ojs.job.outcome", "success")
			.hasHighCardinalityKeyValue("ojs.job.attempt", "2")
			.hasBeenStopped();
	}

	@Test
	void failedExecutionIsAnObservedFailure() {
		assertThatIllegalStateException().isThrownBy(() -> handler((attempt) -> {
			throw new IllegalStateException("boom");
		}, this.tracing.registry()).handle(new TestJobs.TestAttempt(this.job)));
		SimpleSpan span = this.tracing.spans("mail process").get(0);
		assertThat(span.getTags()).containsEntry("ojs.job.outcome", "failure");
		assertThat(span.getError()).hasMessage("boom");
		assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
	}

	@Test
	void jobWithoutTraceContextStartsATrace() throws Exception {
		Job plain = StoredJobs.job("mail.send").queue("mail").attempt(1).build();
		handler((attempt) -> {
		}, this.tracing.registry()).handle(new TestJobs.TestAttempt(plain));
		SimpleSpan span = this.tracing.spans("mail process").get(0);
		assertThat(span.getParentId()).isNullOrEmpty();
		assertThat(span.getTraceId()).isNotEqualTo(TRACE_ID);
	}

	@Test
	void jobOfAWorkflowNamesItsWorkflowItsTypeAndItsStep() throws Exception {
		assertThat(processTags(workflowJob(new WorkflowPlace("chain", "step", 2))))
			.containsEntry("ojs.workflow.id", WORKFLOW_ID)
			.containsEntry("ojs.workflow.type", "chain")
			.containsEntry("ojs.workflow.step", "2");
		// the type splits the timer; the step, one value per index, stays on the trace only
		TestObservationRegistryAssert.assertThat(this.tracing.registry())
			.hasObservationWithNameEqualTo(DefaultJobProcessObservationConvention.NAME)
			.that()
			.hasLowCardinalityKeyValue("ojs.workflow.type", "chain")
			.hasHighCardinalityKeyValue("ojs.workflow.step", "2")
			.hasHighCardinalityKeyValue("ojs.workflow.id", WORKFLOW_ID);
	}

	@Test
	void callbackOfABatchNamesItsRoleAsItsStep() throws Exception {
		assertThat(processTags(workflowJob(new WorkflowPlace("batch", "on_failure", 0))))
			.containsEntry("ojs.workflow.type", "batch")
			.containsEntry("ojs.workflow.step", "on_failure");
	}

	@Test
	void jobOutsideAWorkflowHasTheTypeNoneAndNoStep() throws Exception {
		assertThat(processTags(this.job)).containsEntry("ojs.workflow.type", "none")
			.doesNotContainKeys("ojs.workflow.id", "ojs.workflow.step");
		TestObservationRegistryAssert.assertThat(this.tracing.registry())
			.hasObservationWithNameEqualTo(DefaultJobProcessObservationConvention.NAME)
			.that()
			.hasLowCardinalityKeyValue("ojs.workflow.type", "none")
			.doesNotHaveHighCardinalityKeyValueWithKey("ojs.workflow.step");
	}

	/** The tags of the process span of one successful attempt of {@code job}. */
	private Map<String, String> processTags(Job job) throws Exception {
		handler((attempt) -> {
		}, this.tracing.registry()).handle(new TestJobs.TestAttempt(job));
		return this.tracing.spans("mail process").get(0).getTags();
	}

	private static Job workflowJob(WorkflowPlace place) {
		return StoredJobs.job("mail.send").queue("mail").attempt(1).workflow(WORKFLOW_ID, place).build();
	}

	private ObservedJobHandler handler(JobHandler delegate, ObservationRegistry registry) {
		return new ObservedJobHandler(delegate, registry, null, new JsonMapper());
	}

}
