package dev.ojs.spring.autoconfigure.actuate;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import org.hamcrest.MatcherAssert;
import org.hamcrest.Matcher;

import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;

/**
 * Helpers for the actuator auto-configuration tests.
 */
final class ActuatorTestContexts {

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

}
