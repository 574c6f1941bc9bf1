package dev.ojs.bench.chaos;

/**
 * One verified property of a harness run.
 *
 * @param name what was checked
 * @param status the verdict
 * @param value the measured figure, e.g. {@code 0} lost jobs
 * @param detail examples of violations, or how the figure was obtained
 */
public record Check(String name, Status status, String value, String detail) {

	/** Verdict of a check. */
	public enum Status {

		/** The property holds. */
		PASS,
		/** The property is violated: the run fails. */
		FAIL,
		/** Not checked in this run (e.g. no PostgreSQL restart possible here). */
		SKIP,
		/** A figure reported for information. */
		INFO

	}

	public static Check of(String name, boolean passed, Object value, String detail) {
		return new Check(name, passed ? Status.PASS : Status.FAIL, String.valueOf(value), detail);
	}

	public static Check info(String name, Object value, String detail) {
		return new Check(name, Status.INFO, String.valueOf(value), detail);
	}

	public boolean failed() {
		return this.status == Status.FAIL;
	}

}
