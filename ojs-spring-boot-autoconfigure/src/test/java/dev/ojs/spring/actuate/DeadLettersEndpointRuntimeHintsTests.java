package dev.ojs.spring.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the reflection hints of {@link DeadLettersEndpoint}'s descriptors.
 */
class DeadLettersEndpointRuntimeHintsTests {

	@Test
	void descriptorsReturnedBehindAGeneralTypeAreRegisteredForBinding() {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, DeadLettersEndpoint.class);
		for (Class<?> type : new Class<?>[] { DeadLettersEndpoint.DeadLetterDescriptor.class,
				DeadLettersEndpoint.DeadLetterStatsDescriptor.class,
				DeadLettersEndpoint.ConfirmationRequiredDescriptor.class,
				DeadLettersEndpoint.RetriedDescriptor.class }) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type).withMemberCategory(
					MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
				.as(type.getSimpleName())
				.accepts(hints);
		}
	}

}
