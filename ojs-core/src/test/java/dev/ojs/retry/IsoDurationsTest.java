package dev.ojs.retry;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link IsoDurations}: spec §4 (RET-02, RET-19) and the §14 pattern.
 */
class IsoDurationsTest {

	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	@ParameterizedTest(name = "§4.1 {0} = {1}", quoteTextArguments = false)
	@CsvSource({ "PT0.5S, PT0.5S", "PT1S, PT1S", "PT5S, PT5S", "PT30S, PT30S", "PT1M, PT60S", "PT5M, PT300S",
			"PT15M, PT900S", "PT1H, PT3600S", "PT24H, PT86400S" })
	void recommendedSubset(String text, Duration expected) {
		assertThat(IsoDurations.parse(text)).isEqualTo(expected);
		assertThat(IsoDurations.format(expected)).isEqualTo(text);
	}

	@ParameterizedTest(name = "{0} = {1} ns", quoteTextArguments = false)
	@CsvSource({ "PT1H30M, 5400000000000", "PT1H30M15.25S, 5415250000000", "PT0S, 0", "PT0.000000001S, 1",
			"PT1.000000000S, 1000000000", "PT0.1234567890000S, 123456789", "PT90M, 5400000000000",
			"PT36H, 129600000000000", "PT00010S, 10000000000", "P1D, 86400000000000", "P1M, 2592000000000000",
			"P1Y, 31536000000000000", "P1Y2M3DT4H5M6.7S, 36993906700000000", "P1DT1S, 86401000000000",
			"P0D, 0" })
	void parsesToNanoseconds(String text, long nanos) {
		assertThat(IsoDurations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
	}

	@Test
	void dateComponentsHaveFixedLength() {
		assertThat(IsoDurations.parse("P1D")).isEqualTo(Duration.ofHours(24));
		assertThat(IsoDurations.parse("P1M")).isEqualTo(Duration.ofDays(30));
		assertThat(IsoDurations.parse("P1Y")).isEqualTo(Duration.ofDays(365));
		assertThat(IsoDurations.parse("P1M")).isNotEqualTo(IsoDurations.parse("PT1M"));
	}

	@ParameterizedTest(name = "rejects \"{0}\"", quoteTextArguments = false)
	@ValueSource(strings = { "", " ", "P", "PT", "1S", "PT-1S", "-PT1S", "PT1.S", "PT.5S", "pt1s", "Pt1S", "PT1s",
			" PT1S", "PT1S ", "PT1S\n", "P1DT", "PT1H1H", "PT1S1M", "PT1.5M", "PT1.5H", "P1.5D", "P1W", "PT1,5S",
			"PT+1S", "PT1E3S", "PTS", "P1S", "PT١S", "PT1SX", "XPT1S", "P1D1Y", "PT1M1H" })
	void rejectsWhatTheSchemaPatternRejects(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> IsoDurations.parse(text));
	}

	@ParameterizedTest(name = "rejects overflow \"{0}\"", quoteTextArguments = false)
	@ValueSource(strings = { "PT9223372036854775808S", "PT99999999999999999999999999999999999999999S",
			"P999999999999999999Y", "PT2562047788015216H", "P292471208678Y" })
	void rejectsDurationsBeyondTheRangeOfDuration(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> IsoDurations.parse(text))
			.withMessageContaining("too long");
	}

	@Test
	void acceptsTheLongestDuration() {
		assertThat(IsoDurations.parse("PT9223372036854775807.999999999S")).isEqualTo(LONGEST);
		assertThat(IsoDurations.parse(IsoDurations.format(LONGEST))).isEqualTo(LONGEST);
	}

	@Test
	void rejectsMoreThanNanosecondPrecision() {
		assertThatIllegalArgumentException().isThrownBy(() -> IsoDurations.parse("PT0.0000000001S"))
			.withMessageContaining("9 fractional digits");
		assertThatIllegalArgumentException().isThrownBy(() -> IsoDurations.parse("PT1.1234567891S"));
	}

	@Test
	void parsesHugeLeadingZerosWithoutOverflow() {
		assertThat(IsoDurations.parse("PT" + "0".repeat(10_000) + "7S")).isEqualTo(Duration.ofSeconds(7));
	}

	@ParameterizedTest(name = "format({0}) = {1}", quoteTextArguments = false)
	@MethodSource("formats")
	void formatsInShortestCanonicalForm(Duration duration, String expected) {
		assertThat(IsoDurations.format(duration)).isEqualTo(expected);
		assertThat(IsoDurations.parse(expected)).isEqualTo(duration);
	}

	static Stream<Arguments> formats() {
		return Stream.of(Arguments.of(Duration.ZERO, "PT0S"), Arguments.of(Duration.ofSeconds(1), "PT1S"),
				Arguments.of(Duration.ofMinutes(5), "PT5M"), Arguments.of(Duration.ofMillis(500), "PT0.5S"),
				Arguments.of(Duration.ofMinutes(90), "PT1H30M"), Arguments.of(Duration.ofDays(2), "PT48H"),
				Arguments.of(Duration.ofNanos(1), "PT0.000000001S"),
				Arguments.of(Duration.ofSeconds(3661, 5_000_000), "PT1H1M1.005S"));
	}

	@Test
	void formatRejectsNegativeDurations() {
		assertThatIllegalArgumentException().isThrownBy(() -> IsoDurations.format(Duration.ofSeconds(-1)));
	}

	@Test
	void roundTripsRandomDurations() {
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 10_000; i++) {
			Duration duration = Duration.ofSeconds(random.nextLong(0, Long.MAX_VALUE), random.nextInt(1_000_000_000));
			if (i % 2 == 0) {
				duration = Duration.ofNanos(random.nextLong(0, Long.MAX_VALUE) >>> random.nextInt(64));
			}
			String text = IsoDurations.format(duration);
			assertThat(text).matches("^P(?!$)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$");
			assertThat(IsoDurations.parse(text)).isEqualTo(duration);
		}
	}

}
