package dev.ojs.job;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * An error history as stored, decoded on first use: an unmodifiable list like
 * {@link List#copyOf}.
 * <p>
 * A claim reads the history of every job it reserves, but only an attempt that fails needs
 * it (to append its error, spec §10.1). Decoding it at claim time cost a retried job that
 * then succeeds a JSON parse and a timestamp parse per entry for nothing, so the store hands
 * out the stored text and this list decodes it when something reads it: once, normally (two
 * threads reading it for the first time at once may both decode it, with the same result).
 */
public final class LazyErrorHistory extends AbstractList<ErrorEntry> implements RandomAccess {

	private final String stored;

	private final Function<String, List<ErrorEntry>> decoder;

	private volatile @Nullable List<ErrorEntry> decoded;

	private LazyErrorHistory(String stored, Function<String, List<ErrorEntry>> decoder) {
		this.stored = stored;
		this.decoder = decoder;
	}

	/**
	 * The history stored as {@code stored}, decoded by {@code decoder} on first use.
	 * @param stored the stored form, e.g. a JSON array
	 * @param decoder turns the stored form into the history, oldest first
	 * @return the history
	 */
	public static List<ErrorEntry> of(String stored, Function<String, List<ErrorEntry>> decoder) {
		return new LazyErrorHistory(Objects.requireNonNull(stored, "stored must not be null"),
				Objects.requireNonNull(decoder, "decoder must not be null"));
	}

	/**
	 * An unmodifiable copy of {@code errors} like {@link List#copyOf}, except that a
	 * {@code LazyErrorHistory} (already unmodifiable) is kept as is, undecoded.
	 * @param errors a history, or {@code null} for none
	 * @return the history to keep
	 */
	public static List<ErrorEntry> copyOf(@Nullable List<ErrorEntry> errors) {
		if (errors instanceof LazyErrorHistory) {
			return errors;
		}
		return (errors != null) ? List.copyOf(errors) : List.of();
	}

	/** Whether the history has been decoded yet (for tests and diagnostics). */
	public boolean isDecoded() {
		return this.decoded != null;
	}

	private List<ErrorEntry> decoded() {
		List<ErrorEntry> errors = this.decoded;
		if (errors == null) {
			errors = List.copyOf(this.decoder.apply(this.stored));
			this.decoded = errors;
		}
		return errors;
	}

	@Override
	public ErrorEntry get(int index) {
		return decoded().get(index);
	}

	@Override
	public int size() {
		return decoded().size();
	}

}
