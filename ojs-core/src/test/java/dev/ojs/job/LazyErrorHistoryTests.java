package dev.ojs.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LazyErrorHistoryTests {

	private static final ErrorEntry FIRST = new ErrorEntry(1, "x.failed", "first", ErrorCode.RETRY,
			Instant.parse("2026-11-22T10:00:00Z"), Map.of());

	private static final ErrorEntry SECOND = new ErrorEntry(2, "x.failed", "second", ErrorCode.RETRY,
			Instant.parse("2026-11-22T10:00:01Z"), Map.of("status", 503));

	private final AtomicInteger decodes = new AtomicInteger();

	private List<ErrorEntry> history() {
		return LazyErrorHistory.of(() -> {
			this.decodes.incrementAndGet();
			return List.of(FIRST, SECOND);
		});
	}

	@Test
	void decodesOnFirstReadAndOnlyOnce() {
		List<ErrorEntry> history = history();
		assertThat(this.decodes).hasValue(0);
		assertThat(history.size()).isEqualTo(2);
		assertThat(history.get(1)).isEqualTo(SECOND);
		assertThat(history).containsExactly(FIRST, SECOND);
		assertThat(this.decodes).hasValue(1);
	}

	@Test
	void jobKeepsItUndecodedAndItEqualsTheDecodedList() {
		List<ErrorEntry> history = history();
		Job job = StoredJobs.job("x").errors(history).build();
		assertThat(job.errors()).isSameAs(history);
		assertThat(this.decodes).hasValue(0);
		assertThat(job.lastError()).isEqualTo(SECOND);
		assertThat(job.errors()).isEqualTo(List.of(FIRST, SECOND)).hasSameHashCodeAs(List.of(FIRST, SECOND));
	}

	@Test
	void isUnmodifiable() {
		List<ErrorEntry> history = history();
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> history.add(FIRST));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> history.set(0, SECOND));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> history.remove(0));
		assertThat(history).containsExactly(FIRST, SECOND);
	}

	/** Spec §10.1: a failure appends its error without reading the history before it. */
	@Test
	void appendedHistoryGivesItsNewestEntryWithoutReadingThePrevious() {
		List<ErrorEntry> previous = history();
		ErrorEntry third = new ErrorEntry(3, "x.failed", "third", ErrorCode.RETRY,
				Instant.parse("2026-11-22T10:00:02Z"), Map.of());
		List<ErrorEntry> appended = LazyErrorHistory.appended(previous, third, 20);
		assertThat(LazyErrorHistory.newest(appended)).isEqualTo(third);
		assertThat(LazyErrorHistory.oldestAttemptKept(appended)).isEqualTo(3 - 19);
		assertThat(this.decodes).hasValue(0);
		assertThat(appended).containsExactly(FIRST, SECOND, third);
		assertThat(this.decodes).hasValue(1);
	}

	/** RET-15: the newest {@code limit} entries are kept, and the store drops the attempts before them. */
	@Test
	void appendedHistoryKeepsTheNewestLimitEntries() {
		ErrorEntry third = new ErrorEntry(3, "x.failed", "third", ErrorCode.RETRY,
				Instant.parse("2026-11-22T10:00:02Z"), Map.of());
		List<ErrorEntry> appended = LazyErrorHistory.appended(history(), third, 2);
		assertThat(appended).containsExactly(SECOND, third);
		assertThat(LazyErrorHistory.oldestAttemptKept(appended)).isEqualTo(2);
		assertThat(LazyErrorHistory.oldestAttemptKept(List.of(SECOND, third))).isEqualTo(2);
		assertThat(LazyErrorHistory.newest(List.of())).isNull();
		assertThat(LazyErrorHistory.oldestAttemptKept(List.of())).isZero();
	}

	/**
	 * The limit counts attempts, as the store trims: a revived job (attempt 0 again) keeps the
	 * entries of its earlier attempts until its new attempts pass them.
	 */
	@Test
	void appendedHistoryKeepsAttemptsNotEntries() {
		ErrorEntry again = new ErrorEntry(1, "x.failed", "again", ErrorCode.RETRY,
				Instant.parse("2026-11-22T10:00:03Z"), Map.of());
		List<ErrorEntry> appended = LazyErrorHistory.appended(history(), again, 2);
		assertThat(appended).containsExactly(FIRST, SECOND, again);
		assertThat(LazyErrorHistory.oldestAttemptKept(appended)).isZero();
	}

}
