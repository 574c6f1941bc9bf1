package dev.ojs.web.http;

import java.io.IOException;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.context.SmartLifecycle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event stream's streams end when the application stops, in a phase ahead of the web
 * server's graceful shutdown, so a stopping application does not wait for open streams.
 */
class OjsEventStreamLifecycleTests {

	@Test
	void stopEndsEveryStreamAndRefusesNewOnes() throws IOException {
		OjsEventStream stream = new OjsEventStream("test");
		stream.start();
		stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new);
		stream.subscribe(Set.of("job.completed"), Set.of(), Set.of(), FakeEventOutput::new);
		assertThat(stream.subscriberCount()).isEqualTo(2);

		stream.stop();
		assertThat(stream.isRunning()).isFalse();
		assertThat(stream.subscriberCount()).isZero();
		stream.subscribe(Set.of(), Set.of(), Set.of(), FakeEventOutput::new);
		assertThat(stream.subscriberCount()).isZero();
		stream.destroy();
	}

	@Test
	void stopsBeforeTheWebServersGracefulShutdown() {
		// WebServerGracefulShutdownLifecycle runs in SmartLifecycle.DEFAULT_PHASE - 1024; higher phases stop first
		assertThat(new OjsEventStream("test").getPhase()).isGreaterThan(SmartLifecycle.DEFAULT_PHASE - 1024);
	}

}
