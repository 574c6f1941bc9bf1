package dev.ojs.spring.actuate;

import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.util.Assert;

import dev.ojs.job.JobState;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobs;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.spring.OjsRecurringJobs;

/**
 * {@link Endpoint @Endpoint} to inspect and operate recurring jobs (ojs-cron.md §8) through
 * {@link OjsRecurringJobs}.
 * <p>
 * Over HTTP ({@code /actuator/recurringjobs}):
 * <ul>
 * <li>{@code GET /recurringjobs} lists every recurring job in the database, of every
 * application: name, expression, zone, job type, overlap policy, enabled, paused, next run,
 * last run and its outcome (and the state of its job), run count and owning application;</li>
 * <li>{@code GET /recurringjobs/{name}} shows one;</li>
 * <li>{@code POST /recurringjobs/{name}} with {@code action} {@code pause}, {@code resume} or
 * {@code trigger} (enqueue its job now) operates one recurring job of this application.</li>
 * </ul>
 * The endpoint's default access is {@link Access#READ_ONLY}: its write operation is not
 * available until the application allows it with
 * {@code management.endpoint.recurringjobs.access=unrestricted}.
 */
@Endpoint(id = "recurringjobs", defaultAccess = Access.READ_ONLY)
@RegisterReflectionForBinding({ RecurringJobsEndpoint.RecurringJobDescriptor.class,
		RecurringJobsEndpoint.RecurringJobsDescriptor.class, RecurringJobsEndpoint.TriggeredDescriptor.class })
public class RecurringJobsEndpoint {

	private final OjsRecurringJobs recurringJobs;

	public RecurringJobsEndpoint(OjsRecurringJobs recurringJobs) {
		Assert.notNull(recurringJobs, "'recurringJobs' must not be null");
		this.recurringJobs = recurringJobs;
	}

	/** Every recurring job, by name. */
	@ReadOperation
	public RecurringJobsDescriptor recurringJobs() {
		List<RecurringJobDescriptor> recurringJobs = this.recurringJobs.list().stream().map(this::describe).toList();
		return new RecurringJobsDescriptor(recurringJobs, recurringJobs.size());
	}

	/** One recurring job, or {@code null} (404) when there is none of that name. */
	@ReadOperation
	public @Nullable RecurringJobDescriptor recurringJob(@Selector String name) {
		return this.recurringJobs.find(name).map(this::describe).orElse(null);
	}

	/**
	 * Pauses, resumes or triggers one recurring job.
	 * @param name the recurring job
	 * @param action {@code pause}, {@code resume} or {@code trigger}
	 * @return the recurring job (for {@code trigger}, with the job enqueued), or {@code null} (404)
	 * when there is none of that name
	 */
	@WriteOperation
	public @Nullable OperationResponseBody operate(@Selector String name, String action) {
		try {
			return switch (action) {
				case "pause" -> describe(this.recurringJobs.pause(name));
				case "resume" -> describe(this.recurringJobs.resume(name));
				case "trigger" -> new TriggeredDescriptor(name, this.recurringJobs.trigger(name));
				default -> throw new InvalidEndpointRequestException("Unknown action '" + action
						+ "': expected pause, resume or trigger", "Unknown action");
			};
		}
		catch (NoSuchElementException ex) {
			return null;
		}
		catch (IllegalStateException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Schedule of another application");
		}
	}

	private RecurringJobDescriptor describe(StoredRecurringJob stored) {
		RecurringJobDefinition definition = stored.definition();
		JobState lastJobState = this.recurringJobs.lastJobState(stored);
		return new RecurringJobDescriptor(definition.name(), definition.cron(), definition.zone(), definition.type(),
				definition.overlap().value(), definition.enabled(), RecurringJobs.isPaused(stored), stored.nextRunAt(),
				stored.lastRunAt(), stored.lastOutcome(), stored.lastJobId(),
				(lastJobState != null) ? lastJobState.value() : null, stored.runCount(), stored.queuedRuns(),
				definition.application(), definition.description(), stored.createdAt());
	}

	/**
	 * Every recurring job.
	 *
	 * @param recurringJobs the recurring jobs, by name
	 * @param count how many
	 */
	public record RecurringJobsDescriptor(List<RecurringJobDescriptor> recurringJobs, int count)
			implements OperationResponseBody {
	}

	/**
	 * One recurring job.
	 *
	 * @param name its name
	 * @param cron its expression
	 * @param timezone its zone
	 * @param type the job type it enqueues
	 * @param overlapPolicy what an occurrence does while the previous job is unfinished
	 * @param enabled whether its registration enables it
	 * @param paused whether an operator paused it
	 * @param nextRunAt its next occurrence, {@code null} while disabled or paused
	 * @param lastRunAt its last occurrence, or {@code null}
	 * @param lastOutcome what the last occurrence did: {@code triggered}, {@code overlap_skip} or
	 * {@code overlap_enqueue}
	 * @param lastJobId the last job it enqueued, or {@code null}
	 * @param lastJobState that job's state, or {@code null} when it is gone
	 * @param runCount jobs enqueued so far
	 * @param queuedRuns occurrences waiting for the previous job (overlap {@code enqueue})
	 * @param application the owning application
	 * @param description for people
	 * @param createdAt first registration
	 */
	public record RecurringJobDescriptor(String name, String cron, String timezone, String type, String overlapPolicy,
			boolean enabled, boolean paused, @Nullable Instant nextRunAt, @Nullable Instant lastRunAt,
			@Nullable String lastOutcome, @Nullable String lastJobId, @Nullable String lastJobState, long runCount,
			int queuedRuns, @Nullable String application, @Nullable String description, Instant createdAt)
			implements OperationResponseBody {
	}

	/**
	 * A job enqueued by {@code trigger}.
	 *
	 * @param name the recurring job
	 * @param jobId the job
	 */
	public record TriggeredDescriptor(String name, String jobId) implements OperationResponseBody {
	}

}
