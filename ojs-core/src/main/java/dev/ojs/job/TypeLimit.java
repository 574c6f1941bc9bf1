package dev.ojs.job;

import org.jspecify.annotations.Nullable;

/**
 * The limits of a job type on all nodes and workers together: at most {@code concurrency} of
 * its jobs active at once, and at most {@code concurrencyPerKey} of them with one concurrency
 * key (the key a job was enqueued with); each {@code null} for none.
 *
 * @param concurrency the most active jobs of the type, or {@code null}
 * @param concurrencyPerKey the most active jobs of the type with one key, or {@code null}
 */
public record TypeLimit(@Nullable Integer concurrency, @Nullable Integer concurrencyPerKey) {

	/** No limit. */
	public static final TypeLimit NONE = new TypeLimit(null, null);

	/**
	 * @throws IllegalArgumentException when a limit is below 1
	 */
	public TypeLimit {
		if ((concurrency != null && concurrency < 1) || (concurrencyPerKey != null && concurrencyPerKey < 1)) {
			throw new IllegalArgumentException("A job type's limits must be at least 1, got concurrency " + concurrency
					+ " and concurrency per key " + concurrencyPerKey);
		}
	}

	/** Whether it limits nothing. */
	public boolean isNone() {
		return this.concurrency == null && this.concurrencyPerKey == null;
	}

}
