package dev.ojs.spring.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsRecurring;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up fails for an {@link OjsRecurring @OjsRecurring} method that is not a handler or
 * whose recurring job is invalid (ojs-cron.md §3.5, CRON-02/03/11/13), naming the method and the
 * field.
 */
class OjsRecurringStartupFailureTests {

	private final ApplicationContextRunner runner = OjsContexts.onEmbeddedDatabase()
		.withConfiguration(AutoConfigurations.of(OjsRecurringJobsAutoConfiguration.class))
		.withPropertyValues("ojs.worker.enabled=false", "bad.zone=EST");

	@Test
	void validRecurringJobsStart() {
		this.runner.withBean(Valid.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMethodWithoutOjsJob() {
		this.runner.withBean(WithoutJob.class).run((context) -> assertThat(OjsContexts.failureMessages(context))
			.contains("@OjsRecurring method WithoutJob#occurrence of bean").contains("needs @OjsJob"));
	}

	/** CRON-11: the field of the expression at fault. */
	@Test
	void anInvalidExpression() {
		this.runner.withBean(BadExpression.class).run((context) -> assertThat(OjsContexts.failureMessages(context))
			.contains("@OjsRecurring method BadExpression#occurrence of bean").contains("Invalid cron.hour"));
	}

	/** CRON-13: IANA names only, also through a placeholder. */
	@Test
	void anInvalidZone() {
		this.runner.withBean(BadZone.class).run((context) -> assertThat(OjsContexts.failureMessages(context))
			.contains("@OjsRecurring method BadZone#occurrence of bean").contains("Invalid timezone").contains("EST"));
	}

	/** CRON-02. */
	@Test
	void anInvalidName() {
		this.runner.withBean(BadName.class).run((context) -> assertThat(OjsContexts.failureMessages(context))
			.contains("@OjsRecurring method BadName#occurrence of bean").contains("Invalid name")
			.contains("Reports_Nightly"));
	}

	@Test
	void anEnabledThatIsNeitherTrueNorFalse() {
		this.runner.withBean(BadEnabled.class).run((context) -> assertThat(OjsContexts.failureMessages(context))
			.contains("@OjsRecurring method BadEnabled#occurrence of bean").contains("Invalid enabled"));
	}

	static class Valid {

		@OjsRecurring(name = "reports.nightly", cron = "0 2 * * *", zone = "Europe/Berlin")
		@OjsJob(type = "reports.nightly")
		void occurrence() {
		}

	}

	static class WithoutJob {

		@OjsRecurring(name = "reports.nightly", cron = "0 2 * * *")
		void occurrence() {
		}

	}

	static class BadExpression {

		@OjsRecurring(name = "reports.nightly", cron = "0 25 * * *")
		@OjsJob(type = "reports.nightly")
		void occurrence() {
		}

	}

	static class BadZone {

		@OjsRecurring(name = "reports.nightly", cron = "0 2 * * *", zone = "${bad.zone}")
		@OjsJob(type = "reports.nightly")
		void occurrence() {
		}

	}

	static class BadName {

		@OjsRecurring(name = "Reports_Nightly", cron = "0 2 * * *")
		@OjsJob(type = "reports.nightly")
		void occurrence() {
		}

	}

	static class BadEnabled {

		@OjsRecurring(name = "reports.nightly", cron = "0 2 * * *", enabled = "yes")
		@OjsJob(type = "reports.nightly")
		void occurrence() {
		}

	}

}
