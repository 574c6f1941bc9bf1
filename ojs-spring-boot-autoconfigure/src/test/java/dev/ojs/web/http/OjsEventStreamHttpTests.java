package dev.ojs.web.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /ojs/v1/events} over a real server: the status and headers go out at once, at
 * most {@code ojs.http.events.max-subscribers} streams are open, and a subscriber that does
 * not read is dropped without delaying the others.
 * <p>
 * Each test gets a server of its own: the connection of a stream a test dropped or closed
 * unread lingers in the container after the test, and its reset could be reported on a
 * stream the next test opens, ending that one at once.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.http.events.max-subscribers=2", "ojs.http.events.buffer-size=200",
				"ojs.http.events.keep-alive=100ms" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD)
class OjsEventStreamHttpTests {

	/** Within this a reading subscriber gets an event, and a closed one is noticed. */
	private static final Duration PROMPTLY = Duration.ofSeconds(5);

	/**
	 * A batch takes milliseconds on loopback, and a delivery stalled by the slow subscriber
	 * about a minute (the TCP write times out); the bound leaves room for a busy build machine.
	 */
	private static final Duration BATCH_DELIVERED = Duration.ofSeconds(20);

	@LocalServerPort
	int port;

	@Autowired
	OjsEventStream eventStream;

	private final List<AutoCloseable> streams = new ArrayList<>();

	/**
	 * Held for the whole test: a JDK HttpClient that is no longer referenced closes its
	 * connections once it is collected, which would end the reading subscriber's stream.
	 */
	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@AfterEach
	void closeStreams() throws Exception {
		for (AutoCloseable stream : this.streams) {
			stream.close();
		}
		await().atMost(PROMPTLY).until(() -> this.eventStream.subscriberCount() == 0);
	}

	@Test
	void sendsTheStatusAndHeadersAtOnce() throws IOException {
		Socket socket = subscribe(null);
		String head = readHead(socket);
		assertThat(head).startsWith("HTTP/1.1 200");
		assertThat(head.toLowerCase()).contains("content-type: text/event-stream").contains("ojs-version: 1.0")
			.contains("x-request-id: req_");
	}

	@Test
	void refusesClientsWithoutTheToken() {
		OjsClient.Response refused = new OjsClient(this.port, null).send("GET", "/ojs/v1/events", null,
				Map.of("Accept", "text/event-stream"), false);
		assertThat(refused.status()).isEqualTo(401);
		assertThat(this.eventStream.subscriberCount()).isZero();
	}

	@Test
	void refusesSubscribersBeyondTheMaximumUntilOneLeaves() throws IOException {
		Socket first = subscribe(null);
		assertThat(readHead(first)).startsWith("HTTP/1.1 200");
		assertThat(readHead(subscribe(null))).startsWith("HTTP/1.1 200");
		assertThat(this.eventStream.subscriberCount()).isEqualTo(2);

		OjsClient.Response refused = new OjsClient(this.port, HttpBindingTestApplication.TOKEN).send("GET",
				"/ojs/v1/events", null, Map.of("Accept", "text/event-stream"));
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.header("Content-Type")).startsWith("application/openjobspec+json");
		assertThat(refused.header("Retry-After")).isNotBlank();
		assertThat(refused.errorCode()).isEqualTo("rate_limited");
		JsonNode error = refused.body().path("error");
		assertThat(error.path("retryable").booleanValue()).isTrue();
		assertThat(error.path("details").path("max_subscribers").intValue()).isEqualTo(2);
		assertThat(this.eventStream.subscriberCount()).isEqualTo(2);

		first.close();
		await().atMost(PROMPTLY).until(() -> this.eventStream.subscriberCount() == 1);
		assertThat(readHead(subscribe(null))).startsWith("HTTP/1.1 200");
	}

	@Test
	void dropsASubscriberThatDoesNotReadWithoutDelayingTheOther(CapturedOutput output) throws Exception {
		// never reads: once its socket buffers are full, every write to it would block
		// its head is small enough to read; the events that follow are not read
		assertThat(readHead(subscribe(1024))).startsWith("HTTP/1.1 200");
		List<String> received = read("?queues=slow-test");
		// both are registered once their heads are read
		assertThat(this.eventStream.subscriberCount()).isEqualTo(2);

		// 3,000 events of 8 KB (24 MB): far beyond the socket buffers and the buffer of 200
		String padding = "x".repeat(8 * 1024);
		int events = 3000;
		int batch = 100;
		for (int published = 0; published < events;) {
			for (int i = 0; i < batch; i++, published++) {
				Map<String, Object> data = new LinkedHashMap<>();
				data.put("job_id", "job-" + published);
				data.put("job_type", "slow.test");
				data.put("queue", "slow-test");
				data.put("state", "available");
				data.put("padding", padding);
				this.eventStream.publish("job.enqueued", "api", "job-" + published, data);
			}
			// a batch (800 KB) takes milliseconds on loopback; a stalled delivery never arrives
			int expected = published;
			await().atMost(BATCH_DELIVERED).pollInterval(Duration.ofMillis(10)).until(() -> received.size() >= expected);
		}
		assertThat(received).hasSize(events);
		for (int i = 0; i < events; i++) {
			assertThat(OjsClient.JSON.readTree(received.get(i)).path("subject").stringValue()).isEqualTo("job-" + i);
		}
		assertThat(this.eventStream.subscriberCount()).isOne();
		assertThat(output.getAll()).contains("OJS event stream: dropped 1 subscriber(s)");
	}

	/** Opens a stream on a socket with the bearer token, reading nothing. */
	private Socket subscribe(@Nullable Integer receiveBufferSize) throws IOException {
		Socket socket = new Socket();
		if (receiveBufferSize != null) {
			socket.setReceiveBufferSize(receiveBufferSize);
		}
		this.streams.add(socket);
		socket.connect(new InetSocketAddress("127.0.0.1", this.port), 2000);
		socket.setSoTimeout((int) PROMPTLY.toMillis());
		OutputStream out = socket.getOutputStream();
		out.write(("GET /ojs/v1/events HTTP/1.1\r\nHost: 127.0.0.1:" + this.port
				+ "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + HttpBindingTestApplication.TOKEN + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return socket;
	}

	/** The status line and headers, failing when they do not come within the socket's timeout. */
	private static String readHead(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
			int next = in.read();
			assertThat(next).as("end of stream").isNotNegative();
			head.write(next);
		}
		return head.toString(StandardCharsets.US_ASCII);
	}

	/** Opens a stream that reads as fast as it can, collecting each event's data. */
	private List<String> read(String query) throws Exception {
		List<String> data = new CopyOnWriteArrayList<>();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/ojs/v1/events" + query))
			.header("Accept", "text/event-stream")
			.header("Authorization", "Bearer " + HttpBindingTestApplication.TOKEN)
			.build();
		HttpResponse<Stream<String>> response = this.http.send(request, HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		Stream<String> lines = response.body();
		this.streams.add(lines::close);
		Thread reader = new Thread(() -> {
			try {
				lines.filter((line) -> line.startsWith("data:")).forEach((line) -> data.add(line.substring(5)));
			}
			catch (RuntimeException ex) {
				// closed by the test
			}
		}, "events-reader");
		reader.setDaemon(true);
		reader.start();
		return data;
	}

}
