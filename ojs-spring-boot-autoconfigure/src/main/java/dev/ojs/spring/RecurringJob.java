package dev.ojs.spring;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.recurring.OverlapPolicy;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobZones;
import dev.ojs.retry.RetryPolicy;

/**
 * A recurring job to register at runtime with {@link OjsRecurringJobs#register}: the job of
 * {@code type} at every occurrence of {@code cron}. Everything else is optional.
 */
public final class RecurringJob {

	private final String name;

	private final String cron;

	private final String type;

	private String zone = RecurringJobZones.DEFAULT;

	private List<?> args = List.of();

	private Map<String, Object> meta = Map.of();

	private @Nullable String queue;

	private @Nullable Integer priority;

	private @Nullable RetryPolicy retry;

	private OverlapPolicy overlap = OverlapPolicy.SKIP;

	private boolean enabled = true;

	private @Nullable String description;

	private RecurringJob(String name, String cron, String type) {
		this.name = Objects.requireNonNull(name, "name must not be null");
		this.cron = Objects.requireNonNull(cron, "cron must not be null");
		this.type = Objects.requireNonNull(type, "type must not be null");
	}

	/**
	 * @param name unique name, {@code [a-z0-9][a-z0-9-.]*}
	 * @param cron 5 or 6 fields, a macro or {@code @every <duration>}
	 * @param type the job type to enqueue
	 */
	public static RecurringJob of(String name, String cron, String type) {
		return new RecurringJob(name, cron, type);
	}

	/** IANA time zone; default {@code UTC}. */
	public RecurringJob zone(String zone) {
		this.zone = zone;
		return this;
	}

	/** The jobs' arguments. */
	public RecurringJob args(List<?> args) {
		this.args = List.copyOf(args);
		return this;
	}

	/** Metadata for the jobs ({@code cron_name} is added). */
	public RecurringJob meta(Map<String, Object> meta) {
		this.meta = Map.copyOf(meta);
		return this;
	}

	/** The jobs' queue; default the handler's. */
	public RecurringJob queue(String queue) {
		this.queue = queue;
		return this;
	}

	/** The jobs' priority; default the handler's. Checked as a job's ({@link JobOptionRules}). */
	public RecurringJob priority(int priority) {
		this.priority = priority;
		return this;
	}

	/** Retry policy fields of the jobs' own (partial): the handler's policy applies to the rest. */
	public RecurringJob retry(RetryPolicy retry) {
		this.retry = retry;
		return this;
	}

	/** What an occurrence does while the previous job is unfinished; default {@code skip}. */
	public RecurringJob overlap(OverlapPolicy overlap) {
		this.overlap = overlap;
		return this;
	}

	public RecurringJob enabled(boolean enabled) {
		this.enabled = enabled;
		return this;
	}

	public RecurringJob description(String description) {
		this.description = description;
		return this;
	}

	/**
	 * The recurring job of {@code application}: validated (name, type, expression, zone, retry
	 * fields: RET-16, priority: {@link JobOptionRules}).
	 */
	RecurringJobDefinition toDefinition(JsonMapper jsonMapper, @Nullable String application, boolean declared) {
		if (this.priority != null) {
			JobOptionRules.checkPriority(this.priority, "priority");
		}
		if (this.retry != null) {
			this.retry.effective();
		}
		return new RecurringJobDefinition(this.name, this.cron, this.zone, this.type,
				jsonMapper.writeValueAsString(this.args), jsonMapper.writeValueAsString(this.meta), this.queue,
				this.priority, this.retry, this.overlap, this.enabled,
				this.description, application, declared);
	}

}
