package dev.ojs.spring.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.ErrorCode;
import dev.ojs.spring.OjsJob;

/**
 * The response codes an {@link OjsJob @OjsJob} method assigns to exception classes with
 * {@code discardOn}, {@code deadLetterOn}, {@code failOn} and {@code retryOn}. A thrown
 * exception takes the code of its closest listed class: itself, else its superclass, and so
 * on. A class may be listed once only, so the closest match is unambiguous.
 */
final class ExceptionCodes {

	static final ExceptionCodes NONE = new ExceptionCodes(Map.of());

	private final Map<Class<?>, ErrorCode> codes;

	private ExceptionCodes(Map<Class<?>, ErrorCode> codes) {
		this.codes = codes;
	}

	/**
	 * @throws IllegalArgumentException naming the attributes when a class is listed twice
	 */
	static ExceptionCodes of(OjsJob annotation) {
		Map<Class<?>, ErrorCode> codes = new LinkedHashMap<>();
		Map<Class<?>, String> attributes = new LinkedHashMap<>();
		add(codes, attributes, "discardOn", annotation.discardOn(), ErrorCode.DISCARD);
		add(codes, attributes, "deadLetterOn", annotation.deadLetterOn(), ErrorCode.DEAD_LETTER);
		add(codes, attributes, "failOn", annotation.failOn(), ErrorCode.FAIL);
		add(codes, attributes, "retryOn", annotation.retryOn(), ErrorCode.RETRY);
		return codes.isEmpty() ? NONE : new ExceptionCodes(Map.copyOf(codes));
	}

	private static void add(Map<Class<?>, ErrorCode> codes, Map<Class<?>, String> attributes, String attribute,
			Class<? extends Throwable>[] classes, ErrorCode code) {
		for (Class<? extends Throwable> type : classes) {
			String previous = attributes.putIfAbsent(type, attribute);
			if (previous != null) {
				throw new IllegalArgumentException("attribute '" + attribute + "' lists " + type.getName()
						+ ((previous.equals(attribute)) ? " twice" : ", which '" + previous + "' also lists"));
			}
			codes.put(type, code);
		}
	}

	/** The code of the closest listed superclass of {@code exceptionType}, or {@code null}. */
	@Nullable ErrorCode codeFor(Class<?> exceptionType) {
		if (this.codes.isEmpty()) {
			return null;
		}
		for (Class<?> type = exceptionType; type != null; type = type.getSuperclass()) {
			ErrorCode code = this.codes.get(type);
			if (code != null) {
				return code;
			}
		}
		return null;
	}

}
