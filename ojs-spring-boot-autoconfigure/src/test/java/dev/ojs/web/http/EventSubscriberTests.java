package dev.ojs.web.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EventSubscriber}: a bounded buffer, written only while the output is ready, and
 * ended once.
 */
class EventSubscriberTests {

	private final List<EventSubscriber> ended = new ArrayList<>();

	private final List<Runnable> scheduled = new ArrayList<>();

	private final Executor writer = this.scheduled::add;

	private EventSubscriber subscriber(FakeEventOutput output, int bufferSize) {
		EventSubscriber subscriber = new EventSubscriber(Set.of(), Set.of(), Set.of(), output, bufferSize,
				this.writer, this.ended::add);
		subscriber.start();
		return subscriber;
	}

	private void runScheduled() {
		List<Runnable> tasks = new ArrayList<>(this.scheduled);
		this.scheduled.clear();
		tasks.forEach(Runnable::run);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void flushesTheHeadersAtOnceThenWritesWhatIsOfferedAndFlushes() {
		FakeEventOutput output = new FakeEventOutput();
		EventSubscriber subscriber = subscriber(output, 10);
		assertThat(output.operations).containsExactly("flush");

		assertThat(subscriber.offer(bytes("a"))).isTrue();
		assertThat(subscriber.offer(bytes("b"))).isTrue();
		assertThat(this.scheduled).as("one delivery for both").hasSize(1);
		runScheduled();
		assertThat(output.operations).containsExactly("flush", "a", "b", "flush");
	}

	/** Until the container calls the write listener, the request's own thread may still be in the servlet. */
	@Test
	void writesNothingBeforeTheContainerCallsTheWriteListener() {
		List<String> written = new ArrayList<>();
		Runnable[] listener = new Runnable[1];
		EventOutput output = new EventOutput() {

			@Override
			public void start(Runnable writable, Runnable closed) {
				listener[0] = writable;
			}

			@Override
			public boolean isReady() {
				return true;
			}

			@Override
			public void write(byte[] bytes) {
				written.add(new String(bytes, StandardCharsets.UTF_8));
			}

			@Override
			public void flush() {
				written.add("flush");
			}

			@Override
			public void close() {
			}

		};
		EventSubscriber subscriber = new EventSubscriber(Set.of(), Set.of(), Set.of(), output, 10, this.writer,
				this.ended::add);
		subscriber.start();
		subscriber.offer(bytes("a"));
		runScheduled();
		assertThat(written).isEmpty();
		listener[0].run();
		assertThat(written).containsExactly("a", "flush");
	}

	@Test
	void writesNothingWhileNotReadyAndResumesWhenWritable() {
		FakeEventOutput output = new FakeEventOutput(false);
		EventSubscriber subscriber = subscriber(output, 10);
		subscriber.offer(bytes("a"));
		runScheduled();
		assertThat(output.operations).isEmpty();
		assertThat(subscriber.buffered()).isOne();

		output.setReady(true);
		assertThat(output.operations).containsExactly("a", "flush");
		assertThat(subscriber.buffered()).isZero();
	}

	@Test
	void refusesOffersBeyondItsBuffer() {
		EventSubscriber subscriber = subscriber(new FakeEventOutput(false), 2);
		assertThat(subscriber.offer(bytes("a"))).isTrue();
		assertThat(subscriber.offer(bytes("b"))).isTrue();
		assertThat(subscriber.offer(bytes("c"))).isFalse();
		assertThat(subscriber.buffered()).isEqualTo(2);
	}

	@Test
	void endsOnceAndClosesItsOutput() {
		FakeEventOutput output = new FakeEventOutput(false);
		EventSubscriber subscriber = subscriber(output, 2);
		subscriber.offer(bytes("a"));
		assertThat(subscriber.close()).isTrue();
		assertThat(subscriber.close()).isFalse();
		output.clientGone();
		assertThat(this.ended).containsExactly(subscriber);
		assertThat(output.closes).hasValue(1);
		assertThat(subscriber.buffered()).isZero();
		assertThat(subscriber.offer(bytes("b"))).as("ignored once ended").isTrue();
		assertThat(subscriber.buffered()).isZero();
	}

	@Test
	void endsWhenTheClientGoesAway() {
		FakeEventOutput output = new FakeEventOutput();
		EventSubscriber subscriber = subscriber(output, 2);
		output.clientGone();
		assertThat(subscriber.isClosed()).isTrue();
		assertThat(this.ended).containsExactly(subscriber);
	}

	@Test
	void endsWhenAWriteFails() {
		FakeEventOutput output = new FakeEventOutput();
		EventSubscriber subscriber = subscriber(output, 2);
		output.failWrites = true;
		subscriber.offer(bytes("a"));
		runScheduled();
		assertThat(subscriber.isClosed()).isTrue();
		assertThat(this.ended).containsExactly(subscriber);
		assertThat(output.closes).hasValue(1);
	}

	@Test
	void filtersByTypeQueueAndJobType() {
		EventSubscriber subscriber = new EventSubscriber(Set.of("job.completed"), Set.of("q"), Set.of(),
				new FakeEventOutput(), 1, this.writer, this.ended::add);
		assertThat(subscriber.wants("job.completed", "q", "any")).isTrue();
		assertThat(subscriber.wants("job.started", "q", "any")).isFalse();
		assertThat(subscriber.wants("job.completed", "other", "any")).isFalse();
	}

}
