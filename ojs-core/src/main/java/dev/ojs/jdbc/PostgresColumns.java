package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Reads the columns of one query's rows from pgjdbc, in order. A column that came as text
 * (claims are planned at every execution, so theirs do) is compared with the previous row's by
 * pgjdbc's own bytes: a value that repeats it (the type, queue and policy of jobs enqueued
 * together, their enqueue time, a claim's start and reservation, its owner) is the same
 * {@code String} or {@code Instant} again, neither decoded nor parsed, and a map keyed by it
 * reuses its hash. A column's format is asked once.
 */
final class PostgresColumns implements SqlSupport.Columns {

	private static final byte UNKNOWN = 0;

	private static final byte TEXT = 1;

	private static final byte OTHER = 2;

	private byte[] formats = new byte[0];

	/** The previous row's bytes of each text column, pgjdbc's own arrays, never written to. */
	private byte[] @Nullable [] bytes = new byte[0][];

	/** What those bytes were read as. */
	private @Nullable Object[] values = new Object[0];

	@Override
	public @Nullable String text(ResultSet rs, int index) throws SQLException {
		return repeated(rs, index, ResultSet::getString, ResultSet::getString);
	}

	@Override
	public @Nullable Instant instant(ResultSet rs, int index) throws SQLException {
		return repeated(rs, index, PostgresTimestamps::fromText, PostgresTimestamps::fromDriver);
	}

	/** One way of reading a column. */
	@FunctionalInterface
	private interface Reader<T> {

		@Nullable T read(ResultSet rs, int index) throws SQLException;

	}

	/**
	 * The column's value: read by {@code fromText} unless its text repeats the previous row's,
	 * or by {@code otherwise} when the column did not come as text.
	 */
	@SuppressWarnings("unchecked")
	private <T> @Nullable T repeated(ResultSet rs, int index, Reader<T> fromText, Reader<T> otherwise)
			throws SQLException {
		if (!isText(rs, index)) {
			return otherwise.read(rs, index);
		}
		byte[] read = rs.getBytes(index);
		if (read == null) {
			return null;
		}
		if (!Arrays.equals(read, this.bytes[index])) {
			this.values[index] = fromText.read(rs, index);
			this.bytes[index] = read;
		}
		return (T) this.values[index];
	}

	private boolean isText(ResultSet rs, int index) throws SQLException {
		if (index >= this.formats.length) {
			this.formats = Arrays.copyOf(this.formats, index + 1);
			this.bytes = Arrays.copyOf(this.bytes, index + 1);
			this.values = Arrays.copyOf(this.values, index + 1);
		}
		if (this.formats[index] == UNKNOWN) {
			this.formats[index] = PostgresTimestamps.isText(rs, index) ? TEXT : OTHER;
		}
		return this.formats[index] == TEXT;
	}

}
