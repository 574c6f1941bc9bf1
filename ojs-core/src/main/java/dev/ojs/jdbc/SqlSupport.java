package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the SQL classes of one store share: the platform, the job table's name, the
 * {@link JdbcTemplate} and transaction manager on the store's data source, whether its jobs
 * have sequence keys, and how the platform binds and reads instants, ids and JSON. Every SQL
 * class extends it, each a view of the same store's parts.
 * <p>
 * Every statement binds its values; the only text spliced into SQL is the table prefix,
 * validated by {@link JdbcStoreSettings}.
 */
class SqlSupport {

	/** Ids per statement for IN lists and per-row batches. */
	static final int CHUNK = 500;

	final JdbcPlatform platform;

	final JdbcStoreSettings settings;

	/** The job table. */
	final String table;

	final DataSource dataSource;

	final JdbcTemplate jdbc;

	/** Whether the job table holds jobs with a sequence key, which claims must check. */
	final SequenceKeys sequenceKeys;

	private final DataSourceTransactionManager transactions;

	private final String idParam;

	private final String jsonParam;

	SqlSupport(JdbcPlatform platform, JdbcStoreSettings settings, DataSource dataSource) {
		this.platform = platform;
		this.settings = settings;
		this.table = settings.tableName();
		this.dataSource = dataSource;
		this.jdbc = new JdbcTemplate(dataSource);
		this.sequenceKeys = new SequenceKeys(this.jdbc, this.table);
		this.transactions = new StoreTransactionManager(dataSource);
		boolean postgres = platform == JdbcPlatform.POSTGRESQL;
		this.idParam = postgres ? "?::uuid" : "?";
		this.jsonParam = postgres ? "?::jsonb" : "?";
	}

	/** The same store's parts, for an SQL class of one concern. */
	SqlSupport(SqlSupport shared) {
		this.platform = shared.platform;
		this.settings = shared.settings;
		this.table = shared.table;
		this.dataSource = shared.dataSource;
		this.jdbc = shared.jdbc;
		this.sequenceKeys = shared.sequenceKeys;
		this.transactions = shared.transactions;
		this.idParam = shared.idParam;
		this.jsonParam = shared.jsonParam;
	}

	/** Whether {@code id} is a UUID in its 36-character form, as ids are stored. */
	static boolean isUuid(@Nullable String id) {
		if (id == null || id.length() != 36) {
			return false;
		}
		try {
			UUID.fromString(id);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * A transaction on the store's data source.
	 * @param propagation a {@link TransactionDefinition} propagation behaviour
	 * @param isolation a {@link TransactionDefinition} isolation level
	 */
	TransactionTemplate transaction(int propagation, int isolation) {
		TransactionTemplate transaction = new TransactionTemplate(this.transactions);
		transaction.setPropagationBehavior(propagation);
		transaction.setIsolationLevel(isolation);
		return transaction;
	}

	/** Worker-side transactions: always new, READ COMMITTED. */
	TransactionTemplate workerTransaction() {
		return transaction(TransactionDefinition.PROPAGATION_REQUIRES_NEW, TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	// ---- values

	/**
	 * Binds an instant: as a UTC {@link OffsetDateTime} (timestamp with time zone), on MariaDB
	 * and MySQL as a {@link LocalDateTime} in UTC ({@code DATETIME(6)} columns hold UTC, and the
	 * driver never shifts a {@code LocalDateTime} between time zones).
	 */
	void setInstant(PreparedStatement ps, int index, @Nullable Instant value) throws SQLException {
		if (value == null) {
			ps.setObject(index, null);
		}
		else {
			ps.setObject(index, isMariaDb() ? utcDateTime(value) : utc(value));
		}
	}

	/**
	 * Reads an instant. On PostgreSQL a {@code timestamptz} in text is parsed here, and in binary
	 * read as a {@code Timestamp}, which pgjdbc builds straight from the value
	 * ({@link PostgresTimestamps}): an {@code OffsetDateTime} costs new {@code ZoneRules} per value
	 * on Java 17 (twice the time per timestamp read, eight per claimed job).
	 */
	@Nullable Instant getInstant(ResultSet rs, int index) throws SQLException {
		if (this.platform == JdbcPlatform.POSTGRESQL) {
			return PostgresTimestamps.read(rs, index);
		}
		if (isMariaDb()) {
			LocalDateTime value = rs.getObject(index, LocalDateTime.class);
			return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
		}
		OffsetDateTime value = rs.getObject(index, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	/** Reads the columns of one query's rows, in order. */
	interface Columns {

		@Nullable String text(ResultSet rs, int index) throws SQLException;

		@Nullable Instant instant(ResultSet rs, int index) throws SQLException;

	}

	/**
	 * A reader of the columns of one query's rows, as {@code getString} and {@link #getInstant};
	 * on PostgreSQL a value that repeats the previous row's in its column is read once
	 * ({@link PostgresColumns}).
	 */
	Columns columns() {
		if (this.platform == JdbcPlatform.POSTGRESQL) {
			return new PostgresColumns();
		}
		return new Columns() {

			@Override
			public @Nullable String text(ResultSet rs, int index) throws SQLException {
				return rs.getString(index);
			}

			@Override
			public @Nullable Instant instant(ResultSet rs, int index) throws SQLException {
				return getInstant(rs, index);
			}

		};
	}

	/** SQL for the timestamp column {@code timestamp} plus the milliseconds of the column {@code millis}. */
	final String plusMillis(String timestamp, String millis) {
		return switch (this.platform) {
			case POSTGRESQL -> "(" + timestamp + " + " + millis + " * INTERVAL '1 millisecond')";
			case MARIADB, MYSQL -> "TIMESTAMPADD(MICROSECOND, " + millis + " * 1000, " + timestamp + ")";
			case H2 -> "DATEADD(MILLISECOND, " + millis + ", " + timestamp + ")";
		};
	}

	private boolean isMariaDb() {
		return this.platform == JdbcPlatform.MARIADB || this.platform == JdbcPlatform.MYSQL;
	}

	/** {@code value.atOffset(UTC)}, through {@link #utcDateTime}. */
	static OffsetDateTime utc(Instant value) {
		return OffsetDateTime.of(utcDateTime(value), ZoneOffset.UTC);
	}

	/**
	 * {@code LocalDateTime.ofInstant(value, UTC)} without its cost on Java 17, where every
	 * conversion through a zone builds new {@code ZoneRules} for the offset (a few percent of
	 * a worker's CPU, once per bound or read timestamp).
	 */
	static LocalDateTime utcDateTime(Instant value) {
		return LocalDateTime.ofEpochSecond(value.getEpochSecond(), value.getNano(), ZoneOffset.UTC);
	}

	/** Bind marker for an id (PostgreSQL casts to uuid). */
	String idParam() {
		return this.idParam;
	}

	/** Bind marker for a JSON value (PostgreSQL casts to jsonb). */
	String jsonParam() {
		return this.jsonParam;
	}

	/** {@code count} id bind markers, comma-separated, for an IN list. */
	String idMarkers(int count) {
		return String.join(", ", Collections.nCopies(count, this.idParam));
	}

	/** {@code count} bind markers, comma-separated, for an IN list. */
	static String markers(int count) {
		return String.join(", ", Collections.nCopies(count, "?"));
	}

	/** Binds {@code values} from {@code index} (instants as the platform stores them); returns the next index. */
	int bindValues(PreparedStatement ps, int index, List<?> values) throws SQLException {
		for (Object value : values) {
			if (value instanceof Instant instant) {
				setInstant(ps, index++, instant);
			}
			else {
				ps.setObject(index++, value);
			}
		}
		return index;
	}

	/** {@code items} in lists of at most {@code size}: the list itself when it is short enough. */
	static <T> List<List<T>> chunks(List<T> items, int size) {
		if (items.isEmpty()) {
			return List.of();
		}
		if (items.size() <= size) {
			return List.of(items);
		}
		List<List<T>> chunks = new ArrayList<>();
		for (int from = 0; from < items.size(); from += size) {
			chunks.add(items.subList(from, Math.min(items.size(), from + size)));
		}
		return chunks;
	}

}
