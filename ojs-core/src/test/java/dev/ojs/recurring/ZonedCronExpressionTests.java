package dev.ojs.recurring;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Expression and time zone rules of ojs-cron.md §3–5, against the spec's tables.
 */
class ZonedCronExpressionTests {

	private static final Instant JAN_1 = Instant.parse("2026-01-01T00:00:00Z");

	private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

	@ParameterizedTest(name = "{0} after 2026-01-01T00:00Z is {1}")
	@CsvSource(delimiter = '|', value = {
			// CRON-08: 5 fields (minute first, second 0) and 6 fields (second first), told apart by token count
			"*/15 * * * *        | 2026-01-01T00:15:00Z", "30 */15 * * * *     | 2026-01-01T00:00:30Z",
			// CRON-09: * , - / in every field
			"1,15 * * * *        | 2026-01-01T00:01:00Z", "5-7 3 * * *         | 2026-01-01T03:05:00Z",
			"0 0 1-31/10 * *     | 2026-01-11T00:00:00Z", "0 0 * 2,4 *         | 2026-02-01T00:00:00Z",
			// CRON-10: names in any case; 0 and 7 are Sunday (2026-01-04 is a Sunday)
			"0 0 * jan-Mar Mon   | 2026-01-05T00:00:00Z", "0 0 * FEB *         | 2026-02-01T00:00:00Z",
			"0 0 * * 0           | 2026-01-04T00:00:00Z", "0 0 * * 7           | 2026-01-04T00:00:00Z",
			"0 0 * * sun         | 2026-01-04T00:00:00Z",
			// CRON-S01: L, W, #
			"0 0 L * *           | 2026-01-31T00:00:00Z", "0 0 * * 5#3         | 2026-01-16T00:00:00Z",
			"0 0 15W * *         | 2026-01-15T00:00:00Z",
			// CRON-12: macros, in any case
			"@yearly             | 2027-01-01T00:00:00Z", "@annually           | 2027-01-01T00:00:00Z",
			"@monthly            | 2026-02-01T00:00:00Z", "@weekly             | 2026-01-04T00:00:00Z",
			"@daily              | 2026-01-02T00:00:00Z", "@MIDNIGHT           | 2026-01-02T00:00:00Z",
			"@hourly             | 2026-01-01T01:00:00Z" })
	void nextOccurrenceInUtc(String expression, String next) {
		Occurrence occurrence = ZonedCronExpression.parse(expression, "UTC").next(JAN_1, JAN_1);
		assertThat(occurrence.at()).isEqualTo(Instant.parse(next));
	}

	@ParameterizedTest(name = "{0} is rejected naming {1}")
	@CsvSource(delimiter = '|', value = {
			// CRON-11, §3.5: out of range, never valid, malformed, step 0, empty
			"60 * * * *      | cron.minute", "* 24 * * *      | cron.hour", "0 0 32 * *      | cron.day_of_month",
			"0 0 * 13 *      | cron.month", "0 0 * * 8       | cron.day_of_week", "5-1 * * * *     | cron.minute",
			"*/0 * * * *     | cron.minute", "61 * * * * *    | cron.second", "0 0 * * FUN     | cron.day_of_week",
			"* * * *         | cron", "* * * * * * *   | cron", "@fortnightly    | cron", "@every          | cron",
			"@every 5x       | cron", "@every 0s       | cron", "@every 500ms    | cron", "0 0 30 2 *      | cron" })
	void invalidExpressionsAreRejectedNamingTheField(String expression, String field) {
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> ZonedCronExpression.parse(expression, "UTC"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(field))
			.withMessageStartingWith("Invalid " + field + ":");
	}

	@Test
	void emptyExpressionIsRejected() {
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> ZonedCronExpression.parse("  ", "UTC"))
			.withMessageContaining("must not be empty");
	}

	@Test
	void dayValidOnlyInSomeMonthsIsAcceptedAndSkipsShortMonths() {
		// §3.5: 31 is not rejected; the job does not fire in months without a 31st
		Occurrence occurrence = ZonedCronExpression.parse("0 0 31 * *", "UTC")
			.next(Instant.parse("2026-01-31T00:00:00Z"), JAN_1);
		assertThat(occurrence.at()).isEqualTo(Instant.parse("2026-03-31T00:00:00Z"));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "@every 30m | PT30M", "@every 2h | PT2H", "@every 1h30m | PT1H30M",
			"@every 45s | PT45S", "@every 2h45m30s | PT2H45M30S", "@every 1500ms | PT1.5S" })
	void everyIsAnIntervalAnchoredAtRegistration(String expression, String interval) {
		// CRON-S02, §4.1: registration_time, +interval, +2 intervals...
		java.time.Duration step = java.time.Duration.parse(interval);
		Instant anchor = Instant.parse("2026-01-01T10:07:13Z");
		ZonedCronExpression definition = ZonedCronExpression.parse(expression, "UTC");
		assertThat(definition.next(anchor.minusNanos(1000), anchor).at()).isEqualTo(anchor);
		assertThat(definition.next(anchor, anchor).at()).isEqualTo(anchor.plus(step));
		assertThat(definition.next(anchor.plus(step.multipliedBy(3)).minusMillis(1), anchor).at())
			.isEqualTo(anchor.plus(step.multipliedBy(3)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "UTC", "America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin",
			"Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "Pacific/Auckland" })
	void ianaZonesOfTheSpecAreAccepted(String zone) {
		// CRON-13, §5.1 examples
		assertThat(ZonedCronExpression.parse("0 9 * * *", zone).zone()).isEqualTo(ZoneId.of(zone));
	}

	@ParameterizedTest
	@ValueSource(strings = { "+05:00", "-08:00", "UTC+5", "GMT+1", "EST", "PST", "CST", "EST5EDT", "Etc/GMT+5",
			"Mars/Olympus", "europe/berlin" })
	void offsetsAbbreviationsAndUnknownNamesAreRejected(String zone) {
		// CRON-14
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> ZonedCronExpression.parse("0 9 * * *", zone))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("timezone"));
	}

	@Test
	void zoneDefaultsToUtc() {
		// CRON-15
		assertThat(ZonedCronExpression.parse("0 9 * * *", "").zone()).isEqualTo(ZoneId.of("UTC"));
		assertThat(RecurringJobZones.DEFAULT).isEqualTo("UTC");
	}

	@Test
	void springForwardSkipsTheNonexistentLocalTime() {
		// CRON-16, §5.2: 30 2 * * * in America/New_York; 2026-03-08 02:30 does not exist
		List<Occurrence> occurrences = occurrences("30 2 * * *", NEW_YORK, Instant.parse("2026-03-06T12:00:00Z"), 3);
		assertThat(occurrences).extracting(Occurrence::local)
			.containsExactly("2026-03-07T02:30:00", "2026-03-09T02:30:00", "2026-03-10T02:30:00");
		assertThat(occurrences.get(1).dstSkipped()).containsExactly(LocalDateTime.parse("2026-03-08T02:30:00"));
		assertThat(occurrences.get(1).at()).isEqualTo(Instant.parse("2026-03-09T06:30:00Z"));
	}

	@Test
	void fallBackFiresARepeatedLocalTimeOnceAtItsFirstOccurrence() {
		// CRON-17, §5.2: 30 1 * * * in America/New_York; 2026-11-01 01:30 occurs at 05:30Z (EDT) and 06:30Z (EST)
		List<Occurrence> occurrences = occurrences("30 1 * * *", NEW_YORK, Instant.parse("2026-10-31T12:00:00Z"), 2);
		assertThat(occurrences).extracting(Occurrence::at)
			.containsExactly(Instant.parse("2026-11-01T05:30:00Z"), Instant.parse("2026-11-02T06:30:00Z"));
	}

	@Test
	void fallBackFiresEachLocalTimeOfTheRepeatedHourOnce() {
		// CRON-17 for */30: 00:30, 01:00, 01:30 (EDT), then 02:00 EST; never 01:00 or 01:30 EST
		List<Occurrence> occurrences = occurrences("*/30 * * * *", NEW_YORK, Instant.parse("2026-11-01T04:15:00Z"), 4);
		assertThat(occurrences).extracting(Occurrence::at)
			.containsExactly(Instant.parse("2026-11-01T04:30:00Z"), Instant.parse("2026-11-01T05:00:00Z"),
					Instant.parse("2026-11-01T05:30:00Z"), Instant.parse("2026-11-01T07:00:00Z"));
	}

	@Test
	void evaluatingDuringTheSecondOccurrenceDoesNotFireItAgain() {
		// after a restart at 01:10 EST: 01:30 already fired at its first occurrence
		Occurrence occurrence = ZonedCronExpression.parse("*/30 * * * *", "America/New_York")
			.next(Instant.parse("2026-11-01T06:10:00Z"), JAN_1);
		assertThat(occurrence.at()).isEqualTo(Instant.parse("2026-11-01T07:00:00Z"));
	}

	@Test
	void bothOccurrencesOfARepeatedLocalTimeHaveOneLocalTime() {
		ZonedCronExpression definition = ZonedCronExpression.parse("*/30 * * * *", "America/New_York");
		assertThat(definition.localTime(Instant.parse("2026-11-01T05:30:00Z")))
			.isEqualTo(definition.localTime(Instant.parse("2026-11-01T06:30:00Z")))
			.isEqualTo("2026-11-01T01:30:00");
	}

	private static List<Occurrence> occurrences(String expression, ZoneId zone, Instant from, int count) {
		ZonedCronExpression definition = ZonedCronExpression.parse(expression, zone.getId());
		List<Occurrence> occurrences = new ArrayList<>();
		Instant after = from;
		for (int i = 0; i < count; i++) {
			Occurrence occurrence = definition.next(after, from);
			occurrences.add(occurrence);
			after = occurrence.at();
		}
		return occurrences;
	}

}
