package dev.ojs.recurring;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Registration rules of ojs-cron.md §2.2 and §6.2.
 */
class RecurringJobDefinitionTests {

	@ParameterizedTest
	@ValueSource(strings = { "Reports", "-reports", ".x", "a b", "a_b", "" })
	void namesMustBeLowercaseAlphanumericWithHyphensAndDots(String name) {
		// CRON-02
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> definition(name, "report.generate", "@daily", "UTC"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("name"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "daily-report", "reports.nightly", "0", "a-1.b" })
	void validNamesAreAccepted(String name) {
		assertThat(definition(name, "report.generate", "@daily", "UTC").name()).isEqualTo(name);
	}

	@org.junit.jupiter.api.Test
	void nameOfMoreThan255CharactersIsRejected() {
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> definition("a".repeat(256), "report.generate", "@daily", "UTC"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "Report.Generate", "report..generate", "1report", "report-generate", "" })
	void typesMustBeDotNamespaced(String type) {
		// CRON-04
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> definition("x", type, "@daily", "UTC"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("type"));
	}

	@org.junit.jupiter.api.Test
	void overlapPolicyNamesAndDefault() {
		// CRON-18/19
		assertThat(OverlapPolicy.fromValue("Cancel_Previous")).isEqualTo(OverlapPolicy.CANCEL_PREVIOUS);
		assertThat(OverlapPolicy.values()).extracting(OverlapPolicy::value)
			.containsExactly("skip", "allow", "cancel_previous", "enqueue");
		assertThatExceptionOfType(RecurringJobValidationException.class)
			.isThrownBy(() -> OverlapPolicy.fromValue("queue"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("overlap_policy"));
	}

	@org.junit.jupiter.api.Test
	void uniqueKeyOfALongNameStaysWithinTheColumn() {
		RecurringJobDefinition definition = definition("a".repeat(255), "report.generate", "@daily", "UTC");
		StoredRecurringJob stored = new StoredRecurringJob(definition, java.time.Instant.EPOCH, null, null, null, null,
				0, 0, java.time.Instant.EPOCH, java.time.Instant.EPOCH);
		assertThat(stored.uniqueKey("2026-01-01T00:00:00")).hasSizeLessThanOrEqualTo(255).startsWith("cron:");
		assertThat(new StoredRecurringJob(definition("short", "a.b", "@daily", "UTC"), java.time.Instant.EPOCH, null,
				null, null, null, 0, 0, java.time.Instant.EPOCH,
				java.time.Instant.EPOCH).uniqueKey("2026-01-01T00:00:00"))
			.isEqualTo("cron:short:2026-01-01T00:00:00");
	}

	static RecurringJobDefinition definition(String name, String type, String cron, String zone) {
		return new RecurringJobDefinition(name, cron, zone, type, "[]", "{}", null, null, null, OverlapPolicy.SKIP,
				true, null, null, false);
	}

}
