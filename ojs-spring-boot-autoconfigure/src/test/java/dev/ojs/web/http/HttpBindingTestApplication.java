package dev.ojs.web.http;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.TestDatabaseConfiguration;

/**
 * The application of the HTTP binding tests: the auto-configuration with the binding on
 * ({@code ojs.http.enabled=true}, token {@value #TOKEN}) and an {@code @OjsJob} handler on
 * queue {@value #JAVA_QUEUE} that records what it ran.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(TestDatabaseConfiguration.class)
class HttpBindingTestApplication {

	static final String TOKEN = "test-token";

	static final String JAVA_QUEUE = "java";

	static final String JAVA_TYPE = "http.java_job";

	static final String RESULT_TYPE = "http.java_result";

	static final String SLOW_TYPE = "http.java_slow";

	@Bean
	JavaJobs javaJobs() {
		return new JavaJobs();
	}

	/** Runs {@value #JAVA_TYPE} jobs, recording their ids and arguments; counts overlaps. */
	static class JavaJobs {

		final List<String> ran = new CopyOnWriteArrayList<>();

		final List<Object> args = new CopyOnWriteArrayList<>();

		final ConcurrentHashMap<String, Boolean> running = new ConcurrentHashMap<>();

		final AtomicInteger overlaps = new AtomicInteger();

		@OjsJob(type = JAVA_TYPE, queue = JAVA_QUEUE)
		void run(String text, JobContext context) throws InterruptedException {
			if (this.running.putIfAbsent(context.id(), true) != null) {
				this.overlaps.incrementAndGet();
			}
			try {
				this.args.add(text);
				Thread.sleep(2);
				this.ran.add(context.id());
			}
			finally {
				this.running.remove(context.id());
			}
		}

		/** Returns its result (spec README decision 28): past the limit for "big". */
		@OjsJob(type = RESULT_TYPE, queue = JAVA_QUEUE)
		Map<String, Object> result(String text) {
			return Map.of("echo", "big".equals(text) ? "x".repeat(1024 * 1024) : text, "length", text.length());
		}

		/** Sleeps for its argument; its handler's execution timeout is 300 ms. */
		@OjsJob(type = SLOW_TYPE, queue = JAVA_QUEUE, timeout = "PT0.3S")
		void slow(long millis) throws InterruptedException {
			Thread.sleep(millis);
		}

	}

}
