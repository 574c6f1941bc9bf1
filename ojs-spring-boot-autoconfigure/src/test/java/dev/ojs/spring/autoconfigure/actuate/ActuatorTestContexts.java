package dev.ojs.spring.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsTemplate;
import org.hamcrest.MatcherAssert;
import org.hamcrest.Matcher;

import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;

import static org.awaitility.Awaitility.await;

/**
 * Helpers for the actuator auto-configuration tests.
 */
final class ActuatorTestContexts {

	/** How long the HTTP tests wait for the worker. */
	static final Duration TIMEOUT = Duration.ofSeconds(20);

	private ActuatorTestContexts() {
	}

	/**
	 * Gives the context's environment the conversion service a Spring Boot application has,
	 * so that properties such as {@code management.endpoint.deadletters.access=read-only}
	 * bind as they do in an application.
	 * @param context the context
	 */
	static void applicationConversionService(ConfigurableApplicationContext context) {
		context.getEnvironment()
			.setConversionService((ConfigurableConversionService) ApplicationConversionService.getSharedInstance());
	}

	/**
	 * Adapts a Hamcrest matcher to the {@code Consumer} that {@code RestTestClient}'s JSON
	 * path assertions take.
	 * @param <T> the value type
	 * @param matcher the matcher
	 * @return a consumer asserting that its value matches
	 */
	static <T> Consumer<T> matching(Matcher<? super T> matcher) {
		return (value) -> MatcherAssert.assertThat(value, matcher);
	}

	/**
	 * A table prefix of its own for one test class, e.g. {@code act_k2x9q1_}.
	 * @return the prefix
	 */
	static String randomTablePrefix() {
		return "act_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
	}

	/**
	 * Enqueues a job whose handler ends in the dead letter queue and waits until it is
	 * there.
	 * @param ojs the template to enqueue with
	 * @param store the store to watch
	 * @param type the job type
	 * @param args the job's arguments
	 * @return the job id
	 */
	static String deadLetter(OjsTemplate ojs, JobStore store, String type, Object... args) {
		String id = ojs.enqueue(type, args);
		await().atMost(TIMEOUT).until(() -> store.find(id).map(Job::deadLetter).orElse(false));
		return id;
	}

}
