package dev.ojs.recurring;

import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;

/**
 * A recurring job as registered (ojs-cron.md §2): which job to enqueue on which occurrences.
 * Construction validates the name, type and expression (CRON-02/03/04/11/13/14).
 *
 * @param name unique name, {@code [a-z0-9][a-z0-9\-.]*}, at most 255 characters
 * @param cron the expression (5 or 6 fields, a macro or {@code @every <duration>})
 * @param zone IANA time zone name the expression is read in
 * @param type the job type to enqueue on each occurrence
 * @param argsJson the jobs' {@code args}, a JSON array
 * @param metaJson metadata for the jobs, a JSON object ({@code cron_name} is added, CRON-20)
 * @param queue the jobs' queue, or {@code null} for the handler's
 * @param priority the jobs' priority, or {@code null} for the handler's
 * @param retry retry policy fields of the jobs' own (partial), or {@code null}: the handler's
 * policy applies to the rest
 * @param overlap what an occurrence does while the previous job is unfinished
 * @param enabled whether the recurring job fires
 * @param description for people, or {@code null}
 * @param application the application that owns the recurring job, or {@code null}
 * @param declared whether the owner declares it in code ({@code @OjsRecurring}): such a
 * recurring job is disabled when the owner no longer declares it
 */
public record RecurringJobDefinition(String name, String cron, String zone, String type, String argsJson,
		String metaJson, @Nullable String queue, @Nullable Integer priority, @Nullable RetryPolicy retry,
		OverlapPolicy overlap, boolean enabled, @Nullable String description, @Nullable String application,
		boolean declared) {

	/** Longest recurring job name (ojs-cron.md §2.2). */
	public static final int MAX_NAME_LENGTH = 255;

	private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9\\-.]*");

	/** ojs-core.md: dot-separated segments of {@code [a-z][a-z0-9_]*}. */
	private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");

	public RecurringJobDefinition {
		if (name == null || !NAME.matcher(name).matches() || name.length() > MAX_NAME_LENGTH) {
			throw new RecurringJobValidationException("name", "'" + name
					+ "' must match [a-z0-9][a-z0-9-.]* and have at most " + MAX_NAME_LENGTH + " characters");
		}
		if (type == null || !TYPE.matcher(type).matches() || type.length() > MAX_NAME_LENGTH) {
			throw new RecurringJobValidationException("type",
					"'" + type + "' must be dot-separated segments of [a-z][a-z0-9_]* (e.g. reports.build_nightly)");
		}
		zone = ZonedCronExpression.parse(cron, zone).zone().getId();
		Objects.requireNonNull(argsJson, "argsJson must not be null");
		Objects.requireNonNull(metaJson, "metaJson must not be null");
		Objects.requireNonNull(overlap, "overlap must not be null");
	}

	/** The parsed expression in its zone. */
	public ZonedCronExpression cronExpression() {
		return ZonedCronExpression.parse(this.cron, this.zone);
	}

	/** Whether the occurrences fall differently than {@code other}'s (expression or zone changed). */
	boolean timingDiffers(RecurringJobDefinition other) {
		return !this.cron.equals(other.cron) || !this.zone.equals(other.zone);
	}

	/** This recurring job enabled or disabled. */
	public RecurringJobDefinition withEnabled(boolean enabled) {
		return new RecurringJobDefinition(this.name, this.cron, this.zone, this.type, this.argsJson, this.metaJson,
				this.queue, this.priority, this.retry, this.overlap, enabled, this.description, this.application,
				this.declared);
	}

}
