package dev.ojs.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.spring.OjsNames;
import dev.ojs.spring.OjsValidationException;

/**
 * The queue-name rule of the services ({@link OjsNames}) for a queue name an edge reads
 * before any service sees it, such as a list filter: the same rule and message, refused with
 * {@code 400 invalid_request} naming the request's field.
 */
public final class QueueNames {

	/** What a refusal says. */
	public static final String MESSAGE = OjsNames.QUEUE_MESSAGE;

	private QueueNames() {
	}

	/** Whether the name follows the rule. */
	public static boolean isValid(String name) {
		return OjsNames.isQueue(name);
	}

	/**
	 * The name, or an {@link OjsValidationException} naming {@code field} when it breaks the
	 * rule (answered as {@code 400 invalid_request}).
	 * @param name the name as given
	 * @param field the request field or parameter that gave it
	 */
	public static String check(String name, String field) {
		return OjsNames.checkQueue(name, field);
	}

	/** {@link #check} for an optional value; {@code null} passes. */
	public static @Nullable String checkOptional(@Nullable String name, String field) {
		return (name != null) ? check(name, field) : null;
	}

	/** The refusal of a queue name given in {@code field}. */
	public static ApiException invalid(String field) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("field", field);
		details.put("expected", "queue name");
		return ApiException.invalidRequest(MESSAGE, details);
	}

}
