package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link OjsEventStream} with fake outputs: an exact maximum of subscribers, a buffer per
 * subscriber, and dropping a subscriber that does not keep up without holding up the others.
 */
@ExtendWith(OutputCaptureExtension.class)
class OjsEventStreamTests {

	private final List<OjsEventStream> streams = new ArrayList<>();

	private OjsEventStream stream(int maxSubscribers, int bufferSize) {
		OjsEventStream stream = new OjsEventStream("test", new JsonMapper(), maxSubscribers, bufferSize,
				Duration.ofMinutes(1));
		stream.start();
		this.streams.add(stream);
		return stream;
	}

	@AfterEach
	void destroy() {
		this.streams.forEach(OjsEventStream::destroy);
	}

	private static void publish(OjsEventStream stream, int index) {
		stream.publish("job.enqueued", "api", "job-" + index,
				Map.of("job_id", "job-" + index, "job_type", "t", "queue", "q", "state", "available"));
	}

	@Test
	void admitsExactlyTheMaximumOfConcurrentSubscribers() throws Exception {
		OjsEventStream stream = stream(10, 10);
		int attempts = 64;
		ExecutorService executor = Executors.newFixedThreadPool(16);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<EventSubscriber>> results = new ArrayList<>();
			for (int i = 0; i < attempts; i++) {
				results.add(executor.submit(() -> {
					go.await();
					return stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new);
				}));
			}
			go.countDown();
			List<EventSubscriber> admitted = new ArrayList<>();
			for (Future<EventSubscriber> result : results) {
				EventSubscriber subscriber = result.get();
				if (subscriber != null) {
					admitted.add(subscriber);
				}
			}
			assertThat(admitted).hasSize(10);
			assertThat(stream.subscriberCount()).isEqualTo(10);

			admitted.get(0).close();
			assertThat(stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new)).isNotNull();
			assertThat(stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new)).isNull();
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void opensNoOutputWhenFull() throws Exception {
		OjsEventStream stream = stream(1, 10);
		stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new);
		assertThat(stream.subscribe(Set.of(), Set.of(), Set.of(), () -> {
			throw new AssertionError("opened");
		})).isNull();
	}

	@Test
	void givesThePlaceBackWhenTheOutputCannotBeOpened() throws Exception {
		OjsEventStream stream = stream(1, 10);
		try {
			stream.subscribe(Set.of(), Set.of(), Set.of(), () -> {
				throw new IllegalStateException("async not supported");
			});
		}
		catch (IllegalStateException expected) {
		}
		assertThat(stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new)).isNotNull();
	}

	@Test
	void dropsASubscriberThatDoesNotReadWithoutHoldingUpTheOthers() throws Exception {
		OjsEventStream stream = stream(10, 100);
		FakeEventOutput stalled = new FakeEventOutput(false);
		FakeEventOutput reading = new FakeEventOutput();
		EventSubscriber slow = stream.subscribe(Set.of(), Set.of(), Set.of(), () -> stalled);
		stream.subscribe(Set.of(), Set.of(), Set.of(), () -> reading);
		for (int i = 0; i < 1000; i++) {
			publish(stream, i);
			if (i % 50 == 49) {
				// the reading one keeps up, as a client reading as fast as events come would
				int published = i + 1;
				await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
					.until(() -> reading.events().size() == published);
			}
		}
		assertThat(slow.isClosed()).isTrue();
		assertThat(stalled.closes).hasValue(1);
		assertThat(stalled.written).isEmpty();
		assertThat(stream.subscriberCount()).isOne();
		assertThat(reading.events()).hasSize(1000);
		assertThat(reading.events().get(999)).startsWith("id:evt_").contains("\nevent:job.enqueued\ndata:{")
			.contains("\"subject\":\"job-999\"").endsWith("}\n\n");
	}

	@Test
	void logsDropsInOneShortLine(CapturedOutput output) throws Exception {
		OjsEventStream stream = stream(500, 1);
		for (int i = 0; i < 500; i++) {
			stream.subscribe(Set.of(), Set.of(), Set.of(), () -> new FakeEventOutput(false));
		}
		publish(stream, 1);
		publish(stream, 2);
		assertThat(stream.subscriberCount()).isZero();
		List<String> lines = output.getAll().lines().filter((line) -> line.contains("OJS event stream")).toList();
		assertThat(lines).hasSize(1);
		assertThat(lines.get(0)).contains("dropped 1 subscriber(s)").hasSizeLessThan(300);
		assertThat(output.getAll()).doesNotContain("\tat ");
	}

	@Test
	void stoppingEndsEveryStream() throws Exception {
		OjsEventStream stream = stream(10, 10);
		FakeEventOutput output = new FakeEventOutput(false);
		stream.subscribe(Set.of(), Set.of(), Set.of(), () -> output);
		stream.stop();
		assertThat(output.closes).hasValue(1);
		assertThat(stream.subscriberCount()).isZero();
	}

	@Test
	void sendsKeepAliveLines() throws Exception {
		OjsEventStream stream = new OjsEventStream("test", new JsonMapper(), 1, 10, Duration.ofMillis(20));
		this.streams.add(stream);
		stream.start();
		FakeEventOutput output = new FakeEventOutput();
		stream.subscribe(Set.of(), Set.of(), Set.of(), () -> output);
		await().atMost(Duration.ofSeconds(5)).until(() -> output.written.contains(":\n\n"));
	}

	@Test
	void refusesLimitsBelowOne() {
		JsonMapper json = new JsonMapper();
		assertThatIllegalArgumentException().isThrownBy(() -> new OjsEventStream("t", json, 0, 1, Duration.ofSeconds(1)))
			.withMessageContaining("maxSubscribers");
		assertThatIllegalArgumentException().isThrownBy(() -> new OjsEventStream("t", json, 1, 0, Duration.ofSeconds(1)))
			.withMessageContaining("bufferSize");
		assertThatIllegalArgumentException().isThrownBy(() -> new OjsEventStream("t", json, 1, 1, Duration.ZERO))
			.withMessageContaining("keepAlive");
	}

	/** L0-EVT-001, ojs-events.md §6.4: the recent events are a bounded ring, kept with no subscriber. */
	@Test
	void keepsTheLastEventsInABoundedRing() {
		OjsEventStream stream = new OjsEventStream("test", new JsonMapper(), 1, 10, Duration.ofMinutes(1), 3);
		this.streams.add(stream);
		for (int i = 0; i < 5; i++) {
			publish(stream, i);
		}
		RecentEvents.Page page = stream.recent(null, Set.of(), Set.of(), Set.of(), 100);
		assertThat(page.events()).extracting((event) -> event.get("subject")).containsExactly("job-2", "job-3", "job-4");
		assertThat(page.cursor()).isEqualTo(page.events().get(2).get("id"));
		RecentEvents.Page after = stream.recent((String) page.events().get(0).get("id"), Set.of(), Set.of(), Set.of(), 1);
		assertThat(after.events()).extracting((event) -> event.get("subject")).containsExactly("job-3");
		assertThat(after.hasMore()).isTrue();
		assertThat(stream.recent(null, Set.of("job.completed"), Set.of(), Set.of(), 100).events()).isEmpty();
		assertThat(stream.recent(null, Set.of(), Set.of("other"), Set.of(), 100).events()).isEmpty();
		OjsEventStream none = new OjsEventStream("test", new JsonMapper(), 1, 10, Duration.ofMinutes(1), 0);
		this.streams.add(none);
		publish(none, 1);
		assertThat(none.recent(null, Set.of(), Set.of(), Set.of(), 100).events()).isEmpty();
	}

}
