package dev.ojs.bench;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CommandLineTests {

	@Test
	void readsValuesFlagsAndDefaults() {
		CommandLine line = CommandLine.parse("--jobs=200k", "--smoke", "--scenario=drain,idle", "--duration=PT5S",
				"--pause=50ms");
		assertThat(line.number("jobs", 1)).isEqualTo(200_000);
		assertThat(line.flag("smoke", false)).isTrue();
		assertThat(line.list("scenario", List.of())).containsExactly("drain", "idle");
		assertThat(line.duration("duration", null)).isEqualTo(Duration.ofSeconds(5));
		assertThat(line.duration("pause", null)).isEqualTo(Duration.ofMillis(50));
		assertThat(line.integer("workers", 3)).isEqualTo(3);
		assertThat(line.string("jdbc-url", "x")).isEqualTo("x");
		line.rejectUnused();
	}

	@Test
	void numbersAcceptSeparatorsAndSuffixes() {
		assertThat(CommandLine.parseNumber("1_000_000")).isEqualTo(1_000_000);
		assertThat(CommandLine.parseNumber("1m")).isEqualTo(1_000_000);
		assertThat(CommandLine.parseNumber("10K")).isEqualTo(10_000);
		assertThat(CommandLine.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
		assertThat(CommandLine.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void rejectsMalformedAndUnknownOptions() {
		assertThatIllegalArgumentException().isThrownBy(() -> CommandLine.parse("jobs=3"))
			.withMessageContaining("jobs=3");
		assertThatIllegalArgumentException().isThrownBy(() -> CommandLine.parse("--jobs=lots").number("jobs", 1))
			.withMessageContaining("--jobs");
		assertThatIllegalArgumentException().isThrownBy(() -> CommandLine.parse("--smoke=maybe").flag("smoke", false))
			.withMessageContaining("--smoke");
		assertThatIllegalArgumentException().isThrownBy(() -> CommandLine.parse("--d=5 parsecs").duration("d", null))
			.withMessageContaining("--d");
		CommandLine line = CommandLine.parse("--jobs=3", "--jbos=4");
		line.number("jobs", 1);
		assertThatIllegalArgumentException().isThrownBy(line::rejectUnused).withMessageContaining("--jbos")
			.withMessageNotContaining("--jobs");
	}

}
