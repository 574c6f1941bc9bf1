package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * What PostgreSQL's statements share: array parameters, and plans made for their parameters.
 */
final class PostgresStatements {

	/** Whether pgjdbc is on the class path (it is an optional dependency). */
	private static final boolean PGJDBC = ClassUtils.isPresent("org.postgresql.PGStatement",
			PostgresStatements.class.getClassLoader());

	private static final DateTimeFormatter TIMESTAMPTZ = new DateTimeFormatterBuilder()
		.appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL)
		.appendPattern("-MM-dd HH:mm:ss")
		.appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
		.appendLiteral("+00")
		.toFormatter(Locale.ROOT);

	private PostgresStatements() {
	}

	/**
	 * Plans {@code ps} for its parameters at every execution: pgjdbc otherwise switches it to
	 * a named server-side statement after a few executions (prepareThreshold, 5 by default),
	 * for which PostgreSQL may cache a generic plan made for whatever the table looked like
	 * then (often empty).
	 */
	static PreparedStatement customPlans(PreparedStatement ps) throws SQLException {
		if (PGJDBC) {
			PgJdbc.customPlans(ps);
		}
		return ps;
	}

	/**
	 * An instant as {@code timestamptz} text for an array parameter: {@code 2026-02-12
	 * 10:31:05.123456+00}. Unlike {@link Instant#toString()}, a year after 9999 has no sign,
	 * which PostgreSQL would reject.
	 */
	static @Nullable String timestamptz(@Nullable Instant instant) {
		return (instant != null) ? TIMESTAMPTZ.format(SqlSupport.utcDateTime(instant)) : null;
	}

	/** Binds an array parameter of one text per item ({@link #setArray}). */
	static <T> void setTexts(PreparedStatement ps, int index, List<T> items, Function<T, @Nullable String> value)
			throws SQLException {
		Object[] values = new Object[items.size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = value.apply(items.get(i));
		}
		setArray(ps, index, values);
	}

	/**
	 * Binds an array parameter that the statement casts to its type ({@code ?::uuid[]},
	 * {@code ?::text[]}) as an array literal, each value's text quoted as pgjdbc's
	 * {@code createArrayOf} writes it, {@code NULL} for null; the parameter takes the cast's type,
	 * so PostgreSQL reads each value as that type at once. pgjdbc escapes a value one character
	 * at a time, a sixth of the completer's time for the ids of a batch; here a value is
	 * appended whole between the quotes and backslashes it holds.
	 */
	static void setArray(PreparedStatement ps, int index, @Nullable Object[] values) throws SQLException {
		ps.setObject(index, arrayLiteral(values), Types.OTHER);
	}

	private static String arrayLiteral(@Nullable Object[] values) {
		StringBuilder literal = new StringBuilder(2 + values.length * 40).append('{');
		for (int i = 0; i < values.length; i++) {
			if (i > 0) {
				literal.append(',');
			}
			if (values[i] == null) {
				literal.append("NULL");
				continue;
			}
			String text = values[i].toString();
			literal.append('"');
			int from = 0;
			for (int at = 0; at < text.length(); at++) {
				char c = text.charAt(at);
				if (c == '"' || c == '\\') {
					literal.append(text, from, at).append('\\');
					from = at;
				}
			}
			literal.append(text, from, text.length()).append('"');
		}
		return literal.append('}').toString();
	}

	/** Loaded only when pgjdbc is present. */
	private static final class PgJdbc {

		static void customPlans(PreparedStatement ps) throws SQLException {
			if (ps.isWrapperFor(org.postgresql.PGStatement.class)) {
				ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
			}
		}

	}

}
