package dev.ojs.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The rule for queue names wherever a request names a queue, the binding's and the Admin
 * API's alike (ojs-core.md, L0-ENV-004): lowercase letters, digits, {@code -} and
 * {@code .}, starting with a letter or digit, at most {@value #MAX_LENGTH} characters.
 */
public final class QueueNames {

	/**
	 * ojs-core.md's queue names ({@code ^[a-z0-9][a-z0-9\-\.]*$}) and {@code _} after the first
	 * character, which Java producers and {@code ojs.worker.queues} keys commonly use
	 * ({@code billing_eu}), so that such a queue can be managed over HTTP too.
	 */
	public static final Pattern PATTERN = Pattern.compile("[a-z0-9][a-z0-9_\\-.]*");

	public static final int MAX_LENGTH = 128;

	/** What a refusal says. */
	public static final String MESSAGE = "A queue name must match ^[a-z0-9][a-z0-9_\\-\\.]*$ and have at most "
			+ MAX_LENGTH + " characters.";

	private QueueNames() {
	}

	/** Whether the name follows the rule. */
	public static boolean isValid(String name) {
		return name.length() <= MAX_LENGTH && PATTERN.matcher(name).matches();
	}

	/**
	 * The name, or {@code 400 invalid_request} naming {@code field} when it breaks the rule.
	 * @param name the name as given
	 * @param field the request field or parameter that gave it
	 */
	public static String check(String name, String field) {
		if (!isValid(name)) {
			throw invalid(field);
		}
		return name;
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
