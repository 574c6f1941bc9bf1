package dev.ojs.spring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobIds;

/**
 * The one rule for job types and queue names, checked by {@link OjsTemplate} and
 * {@link OjsQueues} for every edge: the Java API, the HTTP binding, the Admin API and the
 * actuator refuse the same names with the same message.
 * <ul>
 * <li>A job type follows spec README decision 6: dot-separated segments of lowercase
 * letters, digits, {@code _} and {@code -}, each starting with a letter (L0-ENV-003); at
 * most {@value #MAX_TYPE_LENGTH} characters.</li>
 * <li>A queue name follows ojs-core.md's {@code ^[a-z0-9][a-z0-9\-\.]*$} (L0-ENV-004) and
 * also allows {@code _} after the first character, which Java producers and
 * {@code ojs.worker.queues} keys commonly use ({@code billing_eu}); at most
 * {@value #MAX_QUEUE_LENGTH} characters, the store's limit (ojs-core.md says 128).</li>
 * </ul>
 */
public final class OjsNames {

	/** Job types (decision 6). */
	public static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_\\-]*(\\.[a-z][a-z0-9_\\-]*)*");

	public static final int MAX_TYPE_LENGTH = 255;

	/** What the refusal of a job type says. */
	public static final String TYPE_MESSAGE = "The 'type' must be dot-separated lowercase segments of letters, "
			+ "digits, '_' and '-', each starting with a letter, at most " + MAX_TYPE_LENGTH + " characters.";

	/** Queue names: ojs-core.md's pattern and {@code _} after the first character. */
	public static final Pattern QUEUE = Pattern.compile("[a-z0-9][a-z0-9_\\-.]*");

	public static final int MAX_QUEUE_LENGTH = 255;

	/** What the refusal of a queue name says. */
	public static final String QUEUE_MESSAGE = "A queue name must match ^[a-z0-9][a-z0-9_\\-\\.]*$ and have at most "
			+ MAX_QUEUE_LENGTH + " characters.";

	private OjsNames() {
	}

	/** Whether the job type follows the rule. */
	public static boolean isType(@Nullable String type) {
		return type != null && type.length() <= MAX_TYPE_LENGTH && TYPE.matcher(type).matches();
	}

	/** Whether the queue name follows the rule. */
	public static boolean isQueue(@Nullable String name) {
		return name != null && name.length() <= MAX_QUEUE_LENGTH && QUEUE.matcher(name).matches();
	}

	/**
	 * The job type.
	 * @param field the field that gave it, for the refusal
	 * @throws OjsValidationException when it breaks the rule
	 */
	public static String checkType(@Nullable String type, String field) {
		if (!isType(type)) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("expected", "job type");
			details.put("received", "string");
			throw new OjsValidationException(field, TYPE_MESSAGE, details);
		}
		return type;
	}

	/** The refusal of a job id that is not a lowercase UUID. */
	static final String JOB_ID_MESSAGE = "The '" + OjsValidationException.FIELD
			+ "' field must be a lowercase UUIDv7, e.g. 019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f.";

	/**
	 * A job id chosen by its producer (ojs-core §5.1).
	 * @param field the field that gave it, for the refusal
	 * @throws OjsValidationException when it is not a lowercase UUID
	 */
	public static String checkJobId(@Nullable String id, String field) {
		if (id == null || !JobIds.isId(id)) {
			throw new OjsValidationException(field, JOB_ID_MESSAGE, Map.of("expected", "uuid"));
		}
		return id;
	}

	/**
	 * The queue name.
	 * @param field the field that gave it, for the refusal
	 * @throws OjsValidationException when it breaks the rule
	 */
	public static String checkQueue(@Nullable String name, String field) {
		if (!isQueue(name)) {
			throw new OjsValidationException(field, QUEUE_MESSAGE, Map.of("expected", "queue name"));
		}
		return name;
	}

}
