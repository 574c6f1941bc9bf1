package dev.ojs.spring;

/**
 * A value that a service of the Java API rejects, naming the field it came in: the same rule
 * and the same message whichever edge (Java, the HTTP binding, the Admin API, the actuator)
 * passed the value on.
 */
public class OjsValidationException extends IllegalArgumentException {

	private final String field;

	/**
	 * @param field the field or parameter that holds the rejected value
	 * @param message what is wrong, for people
	 */
	public OjsValidationException(String field, String message) {
		super(message);
		this.field = field;
	}

	/** The field or parameter that holds the rejected value. */
	public String field() {
		return this.field;
	}

}
