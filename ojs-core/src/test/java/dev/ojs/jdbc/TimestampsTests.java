package dev.ojs.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import dev.ojs.job.Timestamps;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimestampsTests {

	private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456789Z");

	@Test
	void plusAddsExactlyBelowMax() {
		assertThat(Timestamps.plus(NOW, Duration.ZERO)).isEqualTo(NOW);
		assertThat(Timestamps.plus(NOW, Duration.ofMillis(1))).isEqualTo(NOW.plusMillis(1));
		assertThat(Timestamps.plus(NOW, Duration.ofDays(365 * 100).plusNanos(7)))
			.isEqualTo(NOW.plus(Duration.ofDays(365 * 100)).plusNanos(7));
	}

	@Test
	void plusSaturatesAtMaxToTheNanosecond() {
		Duration untilMax = Duration.between(NOW, Timestamps.MAX);
		assertThat(Timestamps.plus(NOW, untilMax.minusNanos(1))).isEqualTo(Timestamps.MAX.minusNanos(1));
		assertThat(Timestamps.plus(NOW, untilMax)).isEqualTo(Timestamps.MAX);
		assertThat(Timestamps.plus(NOW, untilMax.plusNanos(1))).isEqualTo(Timestamps.MAX);
		assertThat(Timestamps.plus(NOW, Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))).isEqualTo(Timestamps.MAX);
		assertThat(Timestamps.plus(Timestamps.MAX, Duration.ZERO)).isEqualTo(Timestamps.MAX);
		assertThat(Timestamps.plus(Instant.MAX, Duration.ofSeconds(1))).isEqualTo(Timestamps.MAX);
		assertThat(Timestamps.plus(Instant.MIN, Duration.ofSeconds(1))).isEqualTo(Instant.MIN.plusSeconds(1));
	}

	@Test
	void minusSaturatesAtMin() {
		assertThat(Timestamps.minus(NOW, Duration.ofHours(1))).isEqualTo(NOW.minusSeconds(3600));
		assertThat(Timestamps.minus(NOW, Duration.ofDays(365L * 100))).isEqualTo(Timestamps.MIN);
		assertThat(Timestamps.minus(NOW, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Timestamps.MIN);
	}

	@Test
	void utcConversionsMatchTheZoneApisTheyReplace() {
		for (Instant instant : List.of(NOW, Instant.EPOCH, Instant.parse("1969-12-31T23:59:59.999999Z"), Timestamps.MAX)) {
			assertThat(SqlSupport.utc(instant)).isEqualTo(instant.atOffset(ZoneOffset.UTC));
			assertThat(SqlSupport.utcDateTime(instant)).isEqualTo(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
		}
		assertThat(PostgresStatements.timestamptz(Instant.parse("2026-02-12T10:31:05.123456Z")))
			.isEqualTo("2026-02-12 10:31:05.123456+00");
		assertThat(PostgresStatements.timestamptz(Timestamps.MAX)).isEqualTo("9999-12-31 23:59:59+00");
		assertThat(PostgresStatements.timestamptz(null)).isNull();
	}

	/** The text of a {@code timestamptz} as PostgreSQL writes it (DateStyle ISO), in any session time zone. */
	@Test
	void postgresTextIsReadWithItsOffset() {
		assertThat(parsePostgres("2026-11-30 00:41:02.123456+00")).isEqualTo("2026-11-30T00:41:02.123456Z");
		assertThat(parsePostgres("2026-11-30 06:26:02.1+05:45")).isEqualTo("2026-11-30T00:41:02.100Z");
		assertThat(parsePostgres("2026-11-29 21:11:02-03:30")).isEqualTo("2026-11-30T00:41:02Z");
		assertThat(parsePostgres("1900-01-01 00:00:00+00:19:32")).isEqualTo("1899-12-31T23:40:28Z");
		assertThat(parsePostgres("1969-12-31 23:59:59.999999+00")).isEqualTo("1969-12-31T23:59:59.999999Z");
		assertThat(parsePostgres("9999-12-31 23:59:59+00")).isEqualTo(Timestamps.MAX);
		assertThat(parsePostgres("10000-01-01 00:00:00+00")).isEqualTo("+10000-01-01T00:00:00Z");
	}

	/** What is not of that form is left to the driver. */
	@Test
	void postgresTextOfAnotherFormIsNotRead() {
		for (String text : List.of("infinity", "-infinity", "2026-11-30 00:41:02+00 BC", "2026-11-30 00:41:02",
				"2026-11-30 00:41:02.+00", "2026-13-01 00:00:00+00", "2026-02-30 00:00:00+00", "2026-11-30 24:00:00+00",
				"2026-11-30 00:41:02+0", "2026-11-30 00:41:02+00:", "2026-11-30 00:41:02+00:00:00:00", "2026-11-30T00:41:02Z",
				"26-11-30 00:41:02+00", "2026-11-30 00:41:02Z")) {
			assertThat(parsePostgres(text)).as(text).isNull();
		}
	}

	/** A text as pgjdbc holds it: the bytes PostgreSQL sent. */
	private static Instant parsePostgres(String text) {
		return PostgresTimestamps.parse(text.getBytes(StandardCharsets.UTF_8));
	}

}
