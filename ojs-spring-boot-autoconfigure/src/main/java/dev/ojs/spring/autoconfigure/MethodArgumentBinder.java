package dev.ojs.spring.autoconfigure;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.deser.AbstractDeserializer;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.spring.JobContext;

/**
 * Binds a job's JSON {@code args} array positionally to a handler method's parameters
 * through Jackson, using their generic types; a {@link JobContext} parameter (at most one,
 * anywhere) is supplied instead and consumes no argument.
 * <p>
 * Each argument is read straight from the array's tokens by a reader made once per parameter
 * (its deserializer found once). Arguments that do not fit are read again as a tree, which
 * names the argument and the reason in the {@link ArgumentBindingException}.
 */
final class MethodArgumentBinder {

	private final JsonMapper jsonMapper;

	private final JavaType[] types;

	/** A reader per JSON parameter, by parameter index ({@code null} at the context's). */
	private final @Nullable ObjectReader[] readers;

	private final int contextIndex;

	private final int jsonArgumentCount;

	/**
	 * @throws IllegalArgumentException naming the parameter when one cannot be bound
	 */
	MethodArgumentBinder(Method method, JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
		Parameter[] parameters = method.getParameters();
		Type[] genericTypes = method.getGenericParameterTypes();
		this.types = new JavaType[parameters.length];
		this.readers = new ObjectReader[parameters.length];
		int context = -1;
		for (int i = 0; i < parameters.length; i++) {
			if (parameters[i].getType() == JobContext.class) {
				if (context != -1) {
					throw new IllegalArgumentException("only one JobContext parameter is allowed");
				}
				context = i;
				continue;
			}
			this.types[i] = jsonMapper.constructType(genericTypes[i]);
			checkBindable(i, parameters[i], this.types[i]);
			// an argument is followed by the array's next tokens
			this.readers[i] = jsonMapper.readerFor(this.types[i])
				.without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
		}
		this.contextIndex = context;
		this.jsonArgumentCount = parameters.length - ((context != -1) ? 1 : 0);
	}

	/**
	 * Looks up the parameter's deserializer up front, through public Jackson API only: a
	 * {@link BindabilityProbe} read gives a {@link DeserializationContext} that finds it. A
	 * type Jackson rejects, an abstract type without type information, and a class without a
	 * usable creator (no default constructor, no single or annotated one) fail start-up
	 * rather than every job of the handler.
	 */
	private void checkBindable(int index, Parameter parameter, JavaType type) {
		ValueDeserializer<?> deserializer;
		try {
			BindabilityProbe probe = this.jsonMapper.readerFor(BindabilityProbe.class)
				.withAttribute(BindabilityProbe.TYPE, type)
				.readValue("0");
			deserializer = probe.deserializer();
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException(describe(index, parameter) + " cannot be bound from JSON: "
					+ ex.getOriginalMessage(), ex);
		}
		if (deserializer instanceof AbstractDeserializer) {
			throw new IllegalArgumentException(describe(index, parameter) + " cannot be bound from JSON: "
					+ type.getRawClass().getName()
					+ " is abstract and has no type information; use a concrete type, a record or a collection");
		}
		if (deserializer instanceof ValueInstantiator.Gettable gettable && gettable.getValueInstantiator() != null
				&& !gettable.getValueInstantiator().canInstantiate()) {
			throw new IllegalArgumentException(describe(index, parameter) + " cannot be bound from JSON: "
					+ type.getRawClass().getName() + " has no usable creator; give it a default constructor, a "
					+ "single constructor, or a @JsonCreator one (or use a record)");
		}
	}

	private static String describe(int index, Parameter parameter) {
		return "parameter " + index + " (" + parameter.getParameterizedType().getTypeName() + " "
				+ parameter.getName() + ")";
	}

	/** How many JSON arguments the method takes. */
	int jsonArgumentCount() {
		return this.jsonArgumentCount;
	}

	/**
	 * @param argsJson the job's JSON {@code args} array
	 * @param context the context to pass to a {@link JobContext} parameter
	 * @return the method's arguments
	 * @throws ArgumentBindingException when the arguments do not match the parameters
	 */
	@Nullable Object[] bind(String argsJson, JobContext context) {
		@Nullable Object[] bound = read(argsJson, context);
		return (bound != null) ? bound : readTree(argsJson, context);
	}

	/** The arguments read from the array's tokens, or {@code null} when they do not fit the parameters. */
	private @Nullable Object @Nullable [] read(String argsJson, JobContext context) {
		Object[] result = new Object[this.types.length];
		try (JsonParser parser = this.jsonMapper.createParser(argsJson)) {
			if (parser.nextToken() != JsonToken.START_ARRAY) {
				return null;
			}
			for (int i = 0; i < this.types.length; i++) {
				if (i == this.contextIndex) {
					result[i] = context;
					continue;
				}
				JsonToken token = parser.nextToken();
				if (token == JsonToken.END_ARRAY || token == null) {
					return null;
				}
				result[i] = this.readers[i].readValue(parser);
				if (result[i] == null && this.types[i].isPrimitive()) {
					return null;
				}
			}
			return (parser.nextToken() == JsonToken.END_ARRAY && parser.nextToken() == null) ? result : null;
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * The arguments read through a tree of the whole array: slower, and names the argument
	 * that does not fit.
	 */
	private @Nullable Object[] readTree(String argsJson, JobContext context) {
		JsonNode args;
		try {
			args = this.jsonMapper.readTree(argsJson);
		}
		catch (JacksonException ex) {
			throw new ArgumentBindingException("args is not valid JSON: " + ex.getOriginalMessage(), -1, ex);
		}
		if (args == null || !args.isArray()) {
			throw new ArgumentBindingException("args must be a JSON array", -1, null);
		}
		if (args.size() != this.jsonArgumentCount) {
			throw new ArgumentBindingException("the handler takes " + this.jsonArgumentCount
					+ " argument(s) but the job has " + args.size(), -1, null);
		}
		Object[] result = new Object[this.types.length];
		int next = 0;
		for (int i = 0; i < this.types.length; i++) {
			if (i == this.contextIndex) {
				result[i] = context;
				continue;
			}
			JsonNode arg = args.get(next++);
			try {
				result[i] = this.jsonMapper.treeToValue(arg, this.types[i]);
			}
			catch (JacksonException | IllegalArgumentException ex) {
				throw new ArgumentBindingException("argument " + (next - 1) + " cannot be bound to "
						+ this.types[i].toCanonical() + ": " + message(ex), i, ex);
			}
			if (result[i] == null && this.types[i].isPrimitive()) {
				throw new ArgumentBindingException("argument " + (next - 1) + " is null but the parameter is "
						+ this.types[i].toCanonical(), i, null);
			}
		}
		return result;
	}

	private static String message(Exception ex) {
		return (ex instanceof JacksonException jackson) ? jackson.getOriginalMessage() : ex.getMessage();
	}

	/**
	 * Read once per parameter at start-up: its deserializer finds the root deserializer of
	 * the {@link JavaType} passed as the {@link #TYPE} attribute.
	 */
	@JsonDeserialize(using = BindabilityProbe.Deserializer.class)
	record BindabilityProbe(ValueDeserializer<?> deserializer) {

		static final String TYPE = BindabilityProbe.class.getName() + ".type";

		static final class Deserializer extends ValueDeserializer<BindabilityProbe> {

			@Override
			public BindabilityProbe deserialize(JsonParser parser, DeserializationContext context) {
				return new BindabilityProbe(context.findRootValueDeserializer((JavaType) context.getAttribute(TYPE)));
			}

		}

	}

}
