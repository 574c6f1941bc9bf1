package dev.ojs.job;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * An error history read when first used: an unmodifiable list like {@link List#copyOf}.
 * <p>
 * A claim hands out every reserved job's history, but only a handler that asks for it, or an
 * operator's view, reads it: the store supplies it on first use (decoding stored text, or
 * reading its errors table), once normally (two threads reading it for the first time at once
 * may both load it, with the same result). A failed attempt {@linkplain #appended appends} its
 * error without reading the history before it, so recording a failure never loads it.
 */
public final class LazyErrorHistory extends AbstractList<ErrorEntry> implements RandomAccess {

	private final Supplier<List<ErrorEntry>> loader;

	private final @Nullable ErrorEntry newest;

	/** For an appended history: the oldest attempt whose entries it keeps; else 0. */
	private final int oldestAttemptKept;

	private volatile @Nullable List<ErrorEntry> loaded;

	private LazyErrorHistory(Supplier<List<ErrorEntry>> loader, @Nullable ErrorEntry newest, int oldestAttemptKept) {
		this.loader = loader;
		this.newest = newest;
		this.oldestAttemptKept = oldestAttemptKept;
	}

	/**
	 * The history {@code loader} supplies on first use.
	 * @param loader reads the history, oldest first
	 * @return the history
	 */
	public static List<ErrorEntry> of(Supplier<List<ErrorEntry>> loader) {
		return new LazyErrorHistory(Objects.requireNonNull(loader, "loader must not be null"), null, 0);
	}

	/**
	 * {@code previous} followed by {@code error}, keeping the entries of the newest
	 * {@code limit} attempts (spec §10.1), the rule a store that appends only the new entry
	 * applies too; {@code previous} is read only when this list is.
	 * @param previous the history so far, oldest first
	 * @param error the new entry
	 * @param limit how many attempts' entries to keep, at least 1
	 * @return the new history
	 */
	public static List<ErrorEntry> appended(List<ErrorEntry> previous, ErrorEntry error, int limit) {
		Objects.requireNonNull(previous, "previous must not be null");
		Objects.requireNonNull(error, "error must not be null");
		if (limit < 1) {
			throw new IllegalArgumentException("limit must be at least 1, got " + limit);
		}
		int oldest = error.attempt() - (limit - 1);
		return new LazyErrorHistory(() -> {
			List<ErrorEntry> errors = new ArrayList<>(previous.stream().filter((entry) -> entry.attempt() >= oldest).toList());
			errors.add(error);
			return errors;
		}, error, oldest);
	}

	/**
	 * The newest entry of a non-empty history, without reading the rest when it was
	 * {@linkplain #appended appended}.
	 * @param errors a history
	 * @return its newest entry, or {@code null} when it is empty
	 */
	public static @Nullable ErrorEntry newest(List<ErrorEntry> errors) {
		if (errors instanceof LazyErrorHistory lazy && lazy.newest != null) {
			return lazy.newest;
		}
		return errors.isEmpty() ? null : errors.get(errors.size() - 1);
	}

	/**
	 * The oldest attempt whose entries a history keeps, without reading it when it was
	 * {@linkplain #appended appended}; a store that appends only the newest entry drops those
	 * of earlier attempts.
	 * @param errors a history
	 * @return the attempt of its oldest entry, 0 when it is empty
	 */
	public static int oldestAttemptKept(List<ErrorEntry> errors) {
		if (errors instanceof LazyErrorHistory lazy && lazy.newest != null) {
			return lazy.oldestAttemptKept;
		}
		return errors.isEmpty() ? 0 : errors.get(0).attempt();
	}

	/**
	 * An unmodifiable copy of {@code errors} like {@link List#copyOf}, except that a
	 * {@code LazyErrorHistory} (already unmodifiable) is kept as is, unread.
	 * @param errors a history, or {@code null} for none
	 * @return the history to keep
	 */
	public static List<ErrorEntry> copyOf(@Nullable List<ErrorEntry> errors) {
		if (errors instanceof LazyErrorHistory) {
			return errors;
		}
		return (errors != null) ? List.copyOf(errors) : List.of();
	}

	/** Whether the history has been read yet (for tests and diagnostics). */
	public boolean isDecoded() {
		return this.loaded != null;
	}

	private List<ErrorEntry> loaded() {
		List<ErrorEntry> errors = this.loaded;
		if (errors == null) {
			errors = List.copyOf(this.loader.get());
			this.loaded = errors;
		}
		return errors;
	}

	@Override
	public ErrorEntry get(int index) {
		return loaded().get(index);
	}

	@Override
	public int size() {
		return loaded().size();
	}

}
