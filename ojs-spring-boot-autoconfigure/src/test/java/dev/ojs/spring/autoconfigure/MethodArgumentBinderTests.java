package dev.ojs.spring.autoconfigure;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.ReflectionUtils;

import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MethodArgumentBinder}.
 */
class MethodArgumentBinderTests {

	private final JsonMapper jsonMapper = new JsonMapper();

	@Test
	void bindsPrimitivesStringsAndBoxes() {
		Object[] args = bind("primitives", "[42, true, 2.5, \"hello\", 7, null]");
		assertThat(args).containsExactly(42, true, 2.5, "hello", 7L, null);
	}

	@Test
	void bindsRecordsAndPojos() {
		Object[] args = bind("records", "[{\"email\":\"a@b.c\",\"age\":3}, {\"name\":\"n\",\"tags\":[\"x\"]}]");
		assertThat(args[0]).isEqualTo(new Customer("a@b.c", 3));
		assertThat(((Pojo) args[1]).getName()).isEqualTo("n");
		assertThat(((Pojo) args[1]).getTags()).containsExactly("x");
	}

	@Test
	void bindsGenericCollections() {
		Object[] args = bind("collections",
				"[[{\"email\":\"a\",\"age\":1},{\"email\":\"b\",\"age\":2}], {\"x\":1,\"y\":2}, [\"a\",\"a\",\"b\"]]");
		assertThat(args[0]).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
			.containsExactly(new Customer("a", 1), new Customer("b", 2));
		assertThat(args[1]).isEqualTo(Map.of("x", 1L, "y", 2L));
		assertThat(args[2]).isEqualTo(Set.of("a", "b"));
	}

	@Test
	void bindsJavaTime() {
		Object[] args = bind("time", "[\"2024-05-01T10:15:30Z\", \"2024-05-01\", \"PT1M30S\"]");
		assertThat(args).containsExactly(Instant.parse("2024-05-01T10:15:30Z"), LocalDate.of(2024, 5, 1),
				Duration.ofSeconds(90));
	}

	@Test
	void roundTripsWhatTheTemplateWrites() {
		Instant at = Instant.parse("2024-05-01T10:15:30.123456Z");
		String json = this.jsonMapper.writeValueAsString(List.of(at, LocalDate.of(2024, 5, 1), Duration.ofMillis(1500)));
		assertThat(bind("time", json)).containsExactly(at, LocalDate.of(2024, 5, 1), Duration.ofMillis(1500));
	}

	@Test
	void bindsDecimalsAsWritten() {
		// read from the tokens, not through a tree of doubles
		assertThat(bind("decimal", "[0.1000000000000000055511151231257827, 12345678901234567890123]"))
			.containsExactly(new BigDecimal("0.1000000000000000055511151231257827"),
					new BigInteger("12345678901234567890123"));
	}

	@Test
	void tooManyArgumentsIsABindingFailure() {
		assertThatExceptionOfType(ArgumentBindingException.class).isThrownBy(() -> bind("decimal", "[1, 2, 3]"))
			.withMessageContaining("takes 2 argument(s) but the job has 3");
	}

	@Test
	void jobContextAnywhereConsumesNoArgument() {
		JobContext context = new AttemptJobContext(TestJobs.attempt("t", "[]"));
		MethodArgumentBinder binder = binder("withContext");
		assertThat(binder.jsonArgumentCount()).isEqualTo(2);
		assertThat(binder.bind("[\"a\", 5]", context)).containsExactly("a", context, 5);
	}

	@Test
	void noParametersTakeAnEmptyArray() {
		assertThat(bind("none", "[]")).isEmpty();
	}

	@Test
	void wrongArgumentCountIsABindingFailure() {
		assertThatExceptionOfType(ArgumentBindingException.class).isThrownBy(() -> bind("time", "[\"2024-05-01T10:15:30Z\"]"))
			.withMessageContaining("takes 3 argument(s) but the job has 1");
	}

	@Test
	void mismatchedTypeIsABindingFailureNamingTheArgument() {
		assertThatExceptionOfType(ArgumentBindingException.class)
			.isThrownBy(() -> bind("records", "[\"not a customer\", {}]"))
			.withMessageContaining("argument 0")
			.satisfies((ex) -> assertThat(ex.getParameterIndex()).isZero());
	}

	@Test
	void nullForPrimitiveIsABindingFailure() {
		assertThatExceptionOfType(ArgumentBindingException.class)
			.isThrownBy(() -> bind("primitives", "[null, true, 2.5, \"hello\", 7, null]"))
			.withMessageContaining("argument 0");
	}

	@Test
	void argsThatAreNotAnArrayAreABindingFailure() {
		assertThatExceptionOfType(ArgumentBindingException.class).isThrownBy(() -> bind("none", "{}"))
			.withMessageContaining("JSON array");
		assertThatExceptionOfType(ArgumentBindingException.class).isThrownBy(() -> bind("none", "[oops"))
			.withMessageContaining("not valid JSON");
	}

	@Test
	void abstractParameterIsRejectedUpFront() {
		assertThatIllegalArgumentException().isThrownBy(() -> binder("abstractParameter"))
			.withMessageContaining("parameter 0 (java.lang.Runnable task)")
			.withMessageContaining("abstract");
	}

	@Test
	void pojoWithoutAUsableCreatorIsRejectedUpFront() {
		assertThatIllegalArgumentException().isThrownBy(() -> binder("noCreator"))
			.withMessageContaining("parameter 0 (" + NoCreatorPayload.class.getTypeName() + " payload)")
			.withMessageContaining("no usable creator");
	}

	@Test
	void twoContextsAreRejectedUpFront() {
		assertThatIllegalArgumentException().isThrownBy(() -> binder("twoContexts"))
			.withMessageContaining("only one JobContext");
	}

	@Test
	void optionalAndObjectParametersBind() {
		assertThat(bind("loose", "[null, {\"a\":[1]}]")).containsExactly(Optional.empty(), Map.of("a", List.of(1)));
	}

	private Object[] bind(String method, String argsJson) {
		return binder(method).bind(argsJson, null);
	}

	private MethodArgumentBinder binder(String name) {
		Method method = ReflectionUtils.findMethod(Handlers.class, name, (Class<?>[]) null);
		return new MethodArgumentBinder(method, this.jsonMapper);
	}

	record Customer(String email, int age) {
	}

	static class Pojo {

		private String name;

		private List<String> tags;

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public List<String> getTags() {
			return this.tags;
		}

		public void setTags(List<String> tags) {
			this.tags = tags;
		}

	}

	/** Two constructors, neither a default one nor annotated: Jackson cannot pick a creator. */
	static final class NoCreatorPayload {

		final String text;

		NoCreatorPayload(String text, int times) {
			this.text = text.repeat(times);
		}

		NoCreatorPayload(int times, String text) {
			this(text, times);
		}

	}

	@SuppressWarnings("unused")
	static class Handlers {

		void primitives(int a, boolean b, double c, String d, Long e, Integer f) {
		}

		void records(Customer customer, Pojo pojo) {
		}

		void collections(List<Customer> customers, Map<String, Long> counts, Set<String> names) {
		}

		void time(Instant instant, LocalDate date, Duration duration) {
		}

		void decimal(BigDecimal amount, BigInteger count) {
		}

		void withContext(String a, JobContext context, int b) {
		}

		void none() {
		}

		void abstractParameter(Runnable task) {
		}

		void noCreator(NoCreatorPayload payload) {
		}

		void twoContexts(JobContext a, JobContext b) {
		}

		void loose(Optional<String> maybe, Object anything) {
		}

		void template(OjsTemplate template) {
		}

	}

}
