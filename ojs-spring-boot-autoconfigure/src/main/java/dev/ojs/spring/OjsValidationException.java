package dev.ojs.spring;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A value the OJS services refuse, naming the field that gave it: a job type or queue name
 * that breaks {@link OjsNames}, arguments or metadata past {@link JobSizeLimits}. The Java
 * API throws it as it is; the HTTP binding and the Admin API answer it with
 * {@code 400 invalid_request} carrying the same message and, in {@code details}, the field
 * as the request spells it.
 */
public class OjsValidationException extends IllegalArgumentException {

	/** Where a reason names its field. */
	static final String FIELD = "{field}";

	private final String field;

	private final String reason;

	private final Map<String, Object> details;

	/**
	 * @param field the refused value's field, such as {@code queue} or {@code jobs[2].args}
	 * @param reason what is wrong; {@value #FIELD} in it stands for the field
	 * @param details what a client may read besides the field, such as the expected kind
	 */
	public OjsValidationException(String field, String reason, Map<String, ?> details) {
		super(reason.replace(FIELD, field));
		this.field = field;
		this.reason = reason;
		this.details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
	}

	/**
	 * @param field the refused value's field
	 * @param reason what is wrong; {@value #FIELD} in it stands for the field
	 */
	public OjsValidationException(String field, String reason) {
		this(field, reason, Map.of());
	}

	/** The refused value's field. */
	public String getField() {
		return this.field;
	}

	/** The field, then the other details, in order. */
	public Map<String, Object> getDetails() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("field", this.field);
		details.putAll(this.details);
		return details;
	}

	/** The same refusal of the value given as {@code field}: a request's name for it. */
	public OjsValidationException withField(String field) {
		return new OjsValidationException(field, this.reason, this.details);
	}

}
