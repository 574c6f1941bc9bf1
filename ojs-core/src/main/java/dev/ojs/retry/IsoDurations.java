package dev.ojs.retry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ISO 8601 durations as the retry policy uses them (spec §4, RET-02, RET-19).
 * <p>
 * {@link #parse(String)} accepts exactly the strings matched by the §14 schema pattern
 * {@code ^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$}: upper case
 * designators, unsigned decimal digits, a fraction on seconds only. It therefore rejects
 * {@code P}, {@code PT}, {@code 1S}, {@code PT-1S}, {@code PT1.S}, lower case, empty and
 * whitespace-padded strings.
 * <p>
 * Date components, which the spec discourages for retry intervals (§4.2), have a fixed
 * length: a day ({@code D}) is 24 hours, a month ({@code M} before {@code T}) 30 days and a
 * year ({@code Y}) 365 days.
 * <p>
 * Seconds may carry up to nanosecond precision; a fraction with more than nine significant
 * digits (after dropping trailing zeros) is rejected rather than silently rounded.
 * Durations beyond the range of {@link Duration} are rejected too.
 */
public final class IsoDurations {

	/** The §14 pattern, with non-capturing groups around designators and capturing groups around numbers. */
	private static final Pattern PATTERN = Pattern.compile(
			"^P(?!$)(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)D)?"
					+ "(?:T(?=\\d)(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?$");

	/** Seconds per unit of capture groups 1..6: Y = 365 D, M = 30 D, D = 24 h, H, M, S. */
	private static final long[] UNIT_SECONDS = { 365L * 86_400, 30L * 86_400, 86_400, 3_600, 60, 1 };

	/** More integer digits than this overflow {@link Duration} for every unit. */
	private static final int MAX_SIGNIFICANT_DIGITS = 30;

	private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000);

	private static final BigInteger MAX_SECONDS = BigInteger.valueOf(Long.MAX_VALUE);

	private IsoDurations() {
	}

	/**
	 * Parse an ISO 8601 duration string.
	 * @param text the duration, e.g. {@code PT1S}, {@code PT0.5S}, {@code PT1H30M}
	 * @return the non-negative duration
	 * @throws IllegalArgumentException when {@code text} is not a valid duration, has more
	 * than nanosecond precision, or exceeds the range of {@link Duration}
	 */
	public static Duration parse(String text) {
		Objects.requireNonNull(text, "text must not be null");
		Matcher matcher = PATTERN.matcher(text);
		if (!matcher.matches()) {
			throw new IllegalArgumentException(
					"expected the form P[nY][nM][nD][T[nH][nM][n[.n]S]] with at least one component");
		}
		BigDecimal seconds = BigDecimal.ZERO;
		for (int group = 1; group <= UNIT_SECONDS.length; group++) {
			String number = matcher.group(group);
			if (number != null) {
				seconds = seconds.add(amount(number).multiply(BigDecimal.valueOf(UNIT_SECONDS[group - 1])));
			}
		}
		// amount() allows at most 9 fractional digits, so this is exact
		BigInteger[] secondsAndNanos = seconds.movePointRight(9)
			.toBigIntegerExact()
			.divideAndRemainder(NANOS_PER_SECOND);
		if (secondsAndNanos[0].compareTo(MAX_SECONDS) > 0) {
			throw tooLong();
		}
		return Duration.ofSeconds(secondsAndNanos[0].longValue(), secondsAndNanos[1].longValue());
	}

	/**
	 * Format a duration in the shortest canonical form that {@link #parse(String)} reads
	 * back: hours, minutes and (decimal) seconds, no date components, e.g. {@code PT1S},
	 * {@code PT5M}, {@code PT0.5S}, {@code PT1H30M}, {@code PT48H}, {@code PT0S}.
	 * @param duration a non-negative duration
	 * @return the ISO 8601 string
	 * @throws IllegalArgumentException when {@code duration} is negative
	 */
	public static String format(Duration duration) {
		Objects.requireNonNull(duration, "duration must not be null");
		if (duration.isNegative()) {
			throw new IllegalArgumentException("duration must not be negative, got " + duration);
		}
		// Duration.toString() of a non-negative duration is exactly the H/M/S canonical form
		return duration.toString();
	}

	private static BigDecimal amount(String number) {
		int dot = number.indexOf('.');
		String integerPart = (dot < 0) ? number : number.substring(0, dot);
		int firstSignificant = 0;
		while (firstSignificant < integerPart.length() - 1 && integerPart.charAt(firstSignificant) == '0') {
			firstSignificant++;
		}
		if (integerPart.length() - firstSignificant > MAX_SIGNIFICANT_DIGITS) {
			throw tooLong();
		}
		String fraction = (dot < 0) ? "" : stripTrailingZeros(number.substring(dot + 1));
		if (fraction.length() > 9) {
			throw new IllegalArgumentException("seconds may have at most 9 fractional digits (nanosecond precision)");
		}
		return new BigDecimal(integerPart.substring(firstSignificant) + (fraction.isEmpty() ? "" : "." + fraction));
	}

	private static String stripTrailingZeros(String digits) {
		int end = digits.length();
		while (end > 0 && digits.charAt(end - 1) == '0') {
			end--;
		}
		return digits.substring(0, end);
	}

	private static IllegalArgumentException tooLong() {
		return new IllegalArgumentException("duration is too long (at most " + Long.MAX_VALUE + " seconds)");
	}

}
