package dev.ojs.conformance;

/**
 * One unmet expectation of a case.
 *
 * @param stepId the step whose assertion failed
 * @param field what was checked: {@code status}, a JSON path, {@code header:<name>}, ...
 * @param expected the expectation, as written in the case (templates resolved)
 * @param actual what the server answered
 * @param message why it does not match
 */
record Failure(String stepId, String field, String expected, String actual, String message) {

	/** The longest expected or actual value {@link #describe()} shows in full. */
	private static final int MAX_VALUE = 240;

	static Failure of(String stepId, String message) {
		return new Failure(stepId, "", "", "", message);
	}

	/** One line: the step, the field, expected against actual, and the reason. */
	String describe() {
		StringBuilder line = new StringBuilder("[").append(this.stepId).append("] ");
		if (!this.field.isEmpty()) {
			line.append(this.field).append(": ");
		}
		line.append(this.message);
		if (!this.expected.isEmpty() || !this.actual.isEmpty()) {
			line.append(" (expected ").append(shorten(this.expected)).append(", actual ").append(shorten(this.actual)).append(')');
		}
		return line.toString();
	}

	private static String shorten(String text) {
		return (text.length() > MAX_VALUE) ? text.substring(0, MAX_VALUE) + "…" : text;
	}

}
