package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Reads {@code timestamptz} values from pgjdbc results. A statement planned at every execution
 * ({@link PostgresStatements#customPlans}, as claims are) gets its rows as text, which pgjdbc's
 * {@code getTimestamp} parses through a {@code Calendar}: an eighth of a claim's JVM time at eight
 * timestamps per job. The text PostgreSQL writes ({@code DateStyle} ISO, which pgjdbc sets:
 * {@code 2026-11-30 00:41:02.123456+00}, the offset that of the session's time zone) is read here
 * instead; binary values, and any text not of that form (infinity, BC), go to pgjdbc.
 */
final class PostgresTimestamps {

	/** Whether pgjdbc is on the class path (it is an optional dependency). */
	private static final boolean PGJDBC = ClassUtils.isPresent("org.postgresql.PGResultSetMetaData",
			PostgresTimestamps.class.getClassLoader());

	/** Seconds per hour, minute and second of an offset {@code ±HH:mm:ss}. */
	private static final int[] OFFSET_SCALES = { 3_600, 60, 1 };

	private PostgresTimestamps() {
	}

	static @Nullable Instant read(ResultSet rs, int index) throws SQLException {
		return isText(rs, index) ? fromText(rs, index) : fromDriver(rs, index);
	}

	/** Whether the column came from pgjdbc as text (a statement without a server-side prepare). */
	static boolean isText(ResultSet rs, int index) throws SQLException {
		return PGJDBC && PgJdbc.isText(rs, index);
	}

	static @Nullable Instant fromText(ResultSet rs, int index) throws SQLException {
		byte[] text = rs.getBytes(index);
		if (text == null) {
			return null;
		}
		Instant instant = parse(text);
		return (instant != null) ? instant : fromDriver(rs, index);
	}

	static @Nullable Instant fromDriver(ResultSet rs, int index) throws SQLException {
		Timestamp value = rs.getTimestamp(index);
		return (value != null) ? value.toInstant() : null;
	}

	/**
	 * {@code yyyy-MM-dd HH:mm:ss[.f…]±HH[:mm[:ss]]} (a year of four digits or more); {@code null}
	 * for any other text.
	 */
	static @Nullable Instant parse(byte[] text) {
		int length = text.length;
		int yearEnd = indexOf(text, (byte) '-', 4);
		// year-MM-dd HH:mm:ss±HH at the least
		if (yearEnd < 4 || length < yearEnd + 18 || charAt(text, yearEnd + 6) != ' ' || charAt(text, yearEnd + 9) != ':'
				|| charAt(text, yearEnd + 12) != ':' || charAt(text, yearEnd + 3) != '-') {
			return null;
		}
		int year = digits(text, 0, yearEnd);
		int month = digits(text, yearEnd + 1, yearEnd + 3);
		int day = digits(text, yearEnd + 4, yearEnd + 6);
		int hour = digits(text, yearEnd + 7, yearEnd + 9);
		int minute = digits(text, yearEnd + 10, yearEnd + 12);
		int second = digits(text, yearEnd + 13, yearEnd + 15);
		int at = yearEnd + 15;
		int nanos = 0;
		if (charAt(text, at) == '.') {
			int scale = 100_000_000;
			for (at++; at < length && isDigit(charAt(text, at)); at++) {
				nanos += (charAt(text, at) - '0') * scale;
				scale /= 10;
			}
			if (scale == 100_000_000) {
				return null;
			}
		}
		int offset = offsetSeconds(text, at);
		if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
				|| second > 59 || offset == Integer.MIN_VALUE) {
			return null;
		}
		try {
			long epochDay = LocalDate.of(year, month, day).toEpochDay();
			return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second - offset, nanos);
		}
		catch (DateTimeException ex) {
			return null;
		}
	}

	/** {@code ±HH[:mm[:ss]]} from {@code at} to the end, in seconds; {@link Integer#MIN_VALUE} if not that. */
	private static int offsetSeconds(byte[] text, int at) {
		int length = text.length;
		if (at >= length || (charAt(text, at) != '+' && charAt(text, at) != '-')) {
			return Integer.MIN_VALUE;
		}
		int sign = (charAt(text, at) == '-') ? -1 : 1;
		int seconds = 0;
		int part = 0;
		for (at++; part < OFFSET_SCALES.length; part++) {
			if (at + 2 > length) {
				return Integer.MIN_VALUE;
			}
			int value = digits(text, at, at + 2);
			if (value < 0) {
				return Integer.MIN_VALUE;
			}
			seconds += value * OFFSET_SCALES[part];
			at += 2;
			if (at == length) {
				return sign * seconds;
			}
			if (charAt(text, at) != ':') {
				return Integer.MIN_VALUE;
			}
			at++;
		}
		return Integer.MIN_VALUE;
	}

	/** The decimal number of {@code text[from, to)}, or -1 when a character is no digit. */
	private static int digits(byte[] text, int from, int to) {
		int value = 0;
		for (int i = from; i < to; i++) {
			char c = charAt(text, i);
			if (!isDigit(c)) {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

	/** The character at {@code index}, or 0 past the end. */
	private static char charAt(byte[] text, int index) {
		return (index < text.length) ? (char) (text[index] & 0xff) : 0;
	}

	private static int indexOf(byte[] text, byte value, int from) {
		for (int i = from; i < text.length; i++) {
			if (text[i] == value) {
				return i;
			}
		}
		return -1;
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

	/** Loaded only when pgjdbc is present. */
	private static final class PgJdbc {

		/** Whether the column came as text (a statement without a server-side prepare). */
		static boolean isText(ResultSet rs, int index) throws SQLException {
			java.sql.ResultSetMetaData metaData = rs.getMetaData();
			return metaData.isWrapperFor(org.postgresql.PGResultSetMetaData.class)
					&& metaData.unwrap(org.postgresql.PGResultSetMetaData.class).getFormat(index) == 0;
		}

	}

}
