package dev.ojs.recurring;

/**
 * A recurring job that cannot be registered (ojs-cron.md §3.5, CRON-02/03/11/13/14): the message
 * names the field ({@link #field()}), e.g. {@code cron.minute} or {@code timezone}.
 */
public class RecurringJobValidationException extends IllegalArgumentException {

	private final String field;

	public RecurringJobValidationException(String field, String message) {
		super("Invalid " + field + ": " + message);
		this.field = field;
	}

	/** The field at fault: {@code name}, {@code type}, {@code timezone}, {@code cron} or {@code cron.<field>}. */
	public String field() {
		return this.field;
	}

}
