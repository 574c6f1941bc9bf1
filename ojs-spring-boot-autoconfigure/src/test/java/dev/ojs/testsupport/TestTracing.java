package dev.ojs.testsupport;

import java.util.List;

import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTraceContextBuilder;
import io.micrometer.tracing.test.simple.SimpleTracer;

/**
 * A {@link TestObservationRegistry} whose observations make spans of a {@link SimpleTracer},
 * with micrometer-tracing's propagating handlers for producer and consumer observations and
 * a W3C Trace Context propagator ({@code traceparent}, {@code tracestate}).
 */
public final class TestTracing {

	/** The {@code tracestate} every injection writes, to check it travels too. */
	public static final String TRACESTATE = "ojs=test";

	private final SimpleTracer tracer = new SimpleTracer();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	public TestTracing() {
		Propagator propagator = new W3CPropagator(this.tracer);
		this.registry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(this.tracer, propagator),
					new PropagatingReceiverTracingObservationHandler<>(this.tracer, propagator),
					new DefaultTracingObservationHandler(this.tracer)));
	}

	public SimpleTracer tracer() {
		return this.tracer;
	}

	public TestObservationRegistry registry() {
		return this.registry;
	}

	/** The finished spans of this name. */
	public List<SimpleSpan> spans(String name) {
		return this.tracer.getSpans().stream().filter((span) -> name.equals(span.getName())).toList();
	}

	/** The {@code traceparent} of a sampled span (ids padded to W3C's 128 and 64 bits). */
	public static String traceparent(String traceId, String spanId) {
		return "00-" + W3CPropagator.pad(traceId, 32) + "-" + W3CPropagator.pad(spanId, 16) + "-01";
	}

	/**
	 * W3C Trace Context for the {@link SimpleTracer}, whose 64-bit trace ids are padded to
	 * 128 bits, as Brave does.
	 */
	static final class W3CPropagator implements Propagator {

		private final SimpleTracer tracer;

		W3CPropagator(SimpleTracer tracer) {
			this.tracer = tracer;
		}

		@Override
		public List<String> fields() {
			return List.of("traceparent", "tracestate");
		}

		@Override
		public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
			setter.set(carrier, "traceparent", traceparent(context.traceId(), context.spanId()));
			setter.set(carrier, "tracestate", TRACESTATE);
		}

		@Override
		public <C> Span.Builder extract(C carrier, Getter<C> getter) {
			String traceparent = getter.get(carrier, "traceparent");
			if (traceparent == null) {
				return this.tracer.spanBuilder();
			}
			String[] parts = traceparent.split("-");
			TraceContext parent = new SimpleTraceContextBuilder().traceId(unpad(parts[1]))
				.spanId(unpad(parts[2]))
				.sampled(parts[3].equals("01"))
				.build();
			return this.tracer.spanBuilder().setParent(parent);
		}

		static String pad(String id, int length) {
			return "0".repeat(Math.max(0, length - id.length())) + id;
		}

		private static String unpad(String id) {
			return id.substring(id.length() - 16);
		}

	}

}
