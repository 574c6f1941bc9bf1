package dev.ojs.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.ObservationRegistry;
import org.slf4j.MDC;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.testsupport.TestTracing;

/**
 * What {@link ObservabilityIntegrationTests} adds to the {@link IntegrationTestApplication}:
 * an observation registry that traces (W3C context), handlers that record what they see,
 * and an {@link OjsJobListener} bean.
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityTestConfiguration {

	@Bean
	TestTracing testTracing() {
		return new TestTracing();
	}

	@Bean
	ObservationRegistry observationRegistry(TestTracing tracing) {
		return tracing.registry();
	}

	@Bean
	ObservedJobs observedJobs(TestTracing tracing) {
		return new ObservedJobs(tracing);
	}

	@Bean
	RecordingJobListener recordingJobListener() {
		return new RecordingJobListener();
	}

	/** Handlers recording, per job id, what each attempt saw. */
	static class ObservedJobs {

		private final TestTracing tracing;

		final Map<String, List<Seen>> seen = new ConcurrentHashMap<>();

		ObservedJobs(TestTracing tracing) {
			this.tracing = tracing;
		}

		/** Fails its first {@code failures} attempts. */
		@OjsJob(type = "it.traced", maxAttempts = 3)
		public void traced(int failures, JobContext context) {
			record(context, null);
			if (context.attempt() <= failures) {
				throw new IllegalStateException("attempt " + context.attempt());
			}
		}

		@OjsJob(type = "it.no_args")
		public void noArgs(JobContext context) {
			record(context, null);
		}

		@OjsJob(type = "it.list_arg")
		public void listArg(List<String> values, JobContext context) {
			record(context, values);
		}

		List<Seen> seen(String id) {
			return this.seen.getOrDefault(id, List.of());
		}

		private void record(JobContext context, Object argument) {
			Map<String, String> mdc = MDC.getCopyOfContextMap();
			var span = this.tracing.tracer().currentSpan();
			this.seen.computeIfAbsent(context.id(), (id) -> new CopyOnWriteArrayList<>())
				.add(new Seen((mdc != null) ? Map.copyOf(mdc) : Map.of(),
						(span != null) ? span.context().traceId() : null, argument));
		}

	}

	/** What one attempt saw: the MDC, the current trace and its argument. */
	record Seen(Map<String, String> mdc, String traceId, Object argument) {
	}

	/** Overrides two of the four methods, so it is told of those outcomes only. */
	static class RecordingJobListener implements OjsJobListener {

		final List<OjsJobEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onCompleted(JobCompletedEvent event) {
			this.events.add(event);
		}

		@Override
		public void onRetrying(JobRetryingEvent event) {
			this.events.add(event);
		}

		List<OjsJobEvent> of(String jobId) {
			return new ArrayList<>(this.events.stream().filter((event) -> event.getJobId().equals(jobId)).toList());
		}

	}

}
