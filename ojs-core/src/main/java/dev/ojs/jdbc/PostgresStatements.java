package dev.ojs.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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

	/** A {@code text[]} parameter of one value per item. */
	static <T> Array texts(Connection con, List<T> items, Function<T, @Nullable String> value) throws SQLException {
		return con.createArrayOf("text", items.stream().map(value).toArray());
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
