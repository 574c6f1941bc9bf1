package dev.ojs.spring;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobPage;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.PageCursor;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.spring.event.JobCancelledEvent;

/**
 * The stored jobs as operators see them, beside {@link OjsTemplate}'s enqueue, lookup and
 * cancel: find a stored job with its effective retry policy, activate a pending one, list and
 * count jobs by filter, and retry, cancel or delete them in bulk (ojs-admin-api.md §7, §8;
 * ojs-http-binding.md §9.5). The HTTP binding, the Admin API and the actuator reach jobs
 * through these two services only.
 * <p>
 * The lists, counts, retries and deletes need an {@link AdminStore}; without one they throw
 * {@link UnsupportedOperationException}. {@link #filter}, {@link #withState} and
 * {@link #withPage} build a {@link JobQuery} from the values a request names them by, with the
 * one rule of each (ojs-admin-api.md §7.1), refusing a bad value with an
 * {@link OjsValidationException} naming its parameter.
 */
public class OjsJobs {

	/** Pages of {@link #page(JobQuery)} are at most this long. */
	public static final int MAX_PAGE = AdminStore.MAX_PAGE;

	/** Pages of {@link #withPage} without a size are this long. */
	public static final int DEFAULT_PAGE = 20;

	/** The name of {@link #withState} for dead letters, beside the {@link JobState} values. */
	private static final String DEAD_LETTER = OjsDeadLetters.STATE;

	private final JobStore store;

	private final @Nullable HandlerDirectory handlers;

	private final @Nullable AdminStore admin;

	/**
	 * @param store where jobs are stored
	 * @param handlers where each type's retry policy comes from, or {@code null} when no
	 * handler is known: a job then shows its own policy fields only
	 * @param admin the filtered lists and bulk operations, or {@code null} when the store
	 * offers none
	 */
	public OjsJobs(JobStore store, @Nullable HandlerDirectory handlers, @Nullable AdminStore admin) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.handlers = handlers;
		this.admin = admin;
	}

	/** The result a job's successful attempt returned, as JSON (spec README decision 28); empty for none. */
	public Optional<String> result(String id) {
		return this.store.result(id);
	}

	/**
	 * The stored job, if there is one with this id, as read at {@link #now()}
	 * ({@link Job#at(Instant)}: a scheduled job that is due reads {@code available}).
	 */
	public Optional<Job> find(String id) {
		return this.store.find(id).map((job) -> job.at(now()));
	}

	/** The store's clock, at which {@link #find} and {@link #page} read a job's state. */
	public Instant now() {
		return this.store.now();
	}

	/**
	 * Where each field of the job's effective retry policy comes from (spec §8.1), or
	 * {@code null} when no handler is known here.
	 */
	public @Nullable RetryPolicyLayers layers(Job job) {
		return (this.handlers != null) ? this.handlers.layers(job) : null;
	}

	/**
	 * Activates a pending job (ojs-core.md §6.2): it becomes available now.
	 * @return whether it did; {@code false} when there is no such job or it is not pending
	 */
	public boolean activate(String id) {
		return this.store.activate(id);
	}

	/**
	 * Cancels those of the jobs that are live, in one statement per chunk of ids, without a
	 * {@link JobCancelledEvent} each (see {@link OjsTemplate#cancel(String)} for one job).
	 * @return how many were cancelled
	 */
	public int cancel(Collection<String> ids) {
		return this.store.cancel(ids);
	}

	/**
	 * A page of the jobs matching the query, and their count; each job as read at
	 * {@link #now()}, as {@link #find} reads it.
	 * @throws OjsValidationException naming {@code per_page}, {@code queue} or {@code id}
	 * when the query breaks the rules of {@link #filter} and {@link #withPage}
	 */
	public JobPage page(JobQuery query) {
		JobPage page = admin().jobs(check(query));
		Instant now = now();
		return new JobPage(page.items().stream().map((job) -> job.at(now)).toList(), page.total(),
				page.totalIsEstimate(), page.next());
	}

	/**
	 * How many jobs match the query (its page ignored): exact up to {@code exactUpTo},
	 * beyond that possibly an estimate.
	 */
	public JobCount count(JobQuery query, long exactUpTo) {
		return admin().count(query, exactUpTo);
	}

	/** Ids of up to {@code limit} jobs matching the query (its page ignored), oldest first. */
	public List<String> ids(JobQuery query, int limit) {
		return admin().ids(query, limit);
	}

	/**
	 * Puts discarded (dead letters included) and cancelled jobs back in line: state
	 * {@code available}, attempt 0, error history kept. A job whose unique key another live
	 * job holds stays where it is.
	 * @return how many were put back
	 */
	public int retry(Collection<String> ids) {
		return admin().retry(ids);
	}

	/** Deletes those of the jobs that are in a terminal state; returns how many. */
	public int delete(Collection<String> ids) {
		return admin().delete(ids);
	}

	/**
	 * Retries, cancels or deletes, oldest first, up to {@code limit} of the jobs matching the
	 * query; only counts them unless {@code confirm} (ojs-admin-api.md §8). The query names a
	 * state the action applies to, so that a filter cannot sweep unrelated jobs. A cancel is
	 * set-based, as {@link #cancel(Collection)}.
	 * @throws OjsValidationException naming {@code state} when the query's state does not fit
	 * the action
	 */
	public BulkResult bulk(BulkAction action, JobQuery query, boolean confirm, int limit) {
		check(query);
		JobState state = query.state();
		if (state == null || !action.states.contains(state)) {
			throw new OjsValidationException("state", "Bulk " + action.value() + " needs filter.state "
					+ action.named, Map.of("expected", action.named));
		}
		AdminStore admin = admin();
		return BulkResult.run(admin, query, confirm, limit, switch (action) {
			case RETRY -> admin::retry;
			case DELETE -> admin::delete;
			case CANCEL -> this.store::cancel;
		});
	}

	/** Throws when the job table cannot be read: one cheap probe, never a count. */
	public void checkAvailable() {
		this.store.checkAvailable();
	}

	/**
	 * A filter of jobs from a request's values; {@code null} and blank values match all.
	 * @param state a {@link JobState} value, or {@code dead_letter} (see {@link #withState})
	 * @param queue an exact queue name
	 * @param type an exact job type, or a prefix when it ends in {@code *}
	 * @param errorType the exact type of the job's latest error
	 * @param since created at or after
	 * @param until created before
	 * @param id a job id (a UUID)
	 * @throws OjsValidationException naming {@code state}, {@code queue} or {@code id}
	 */
	public static JobQuery filter(@Nullable String state, @Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable Instant since, @Nullable Instant until, @Nullable String id) {
		String exactType = blankToNull(type);
		boolean prefix = exactType != null && exactType.endsWith("*");
		if (prefix) {
			exactType = exactType.substring(0, exactType.length() - 1);
		}
		String jobId = blankToNull(id);
		String queueName = blankToNull(queue);
		JobQuery query = new JobQuery(null, null, (queueName != null) ? OjsNames.checkQueue(queueName, "queue") : null,
				exactType, prefix, blankToNull(errorType), since, until, (jobId != null) ? jobId(jobId) : null, null,
				DEFAULT_PAGE, false);
		return withState(query, state);
	}

	/**
	 * The query restricted to the state of this name: {@code dead_letter} selects dead letters,
	 * {@code discarded} the other discarded jobs, any other {@link JobState} value its jobs;
	 * {@code null} or blank leaves the query as it is.
	 * @throws OjsValidationException naming {@code state} for any other name
	 */
	public static JobQuery withState(JobQuery query, @Nullable String state) {
		String value = blankToNull(state);
		if (value == null) {
			return query;
		}
		if (value.equals(DEAD_LETTER)) {
			return query.withState(JobState.DISCARDED, true);
		}
		try {
			JobState parsed = JobState.fromValue(value);
			return query.withState(parsed, (parsed == JobState.DISCARDED) ? Boolean.FALSE : null);
		}
		catch (IllegalArgumentException ex) {
			throw new OjsValidationException("state", "Unknown state '" + value + "'");
		}
	}

	/**
	 * The page of the query to read.
	 * @param cursor the {@code next_cursor} of the page before, or {@code null} (or blank) for the first
	 * @param perPage the page size, from 1 to {@value #MAX_PAGE}; {@code null} for {@value #DEFAULT_PAGE}
	 * @param order {@code asc} (oldest first) or {@code desc} (newest first, also for {@code null}),
	 * in any case
	 * @throws OjsValidationException naming {@code per_page}, {@code order} or {@code cursor}
	 */
	public static JobQuery withPage(JobQuery query, @Nullable String cursor, @Nullable Integer perPage,
			@Nullable String order) {
		int size = (perPage != null) ? perPage : DEFAULT_PAGE;
		checkPageSize(size);
		boolean ascending = "asc".equalsIgnoreCase(order);
		if (order != null && !ascending && !"desc".equalsIgnoreCase(order)) {
			throw new OjsValidationException("order", "order must be asc or desc");
		}
		PageCursor after = null;
		if (blankToNull(cursor) != null) {
			try {
				after = PageCursor.decode(cursor);
			}
			catch (IllegalArgumentException ex) {
				throw new OjsValidationException("cursor", String.valueOf(ex.getMessage()));
			}
		}
		return new JobQuery(query.state(), query.deadLetter(), query.queue(), query.type(), query.typePrefix(),
				query.errorType(), query.since(), query.until(), query.id(), after, size, ascending);
	}

	/** The query if it follows the rules of {@link #filter} and {@link #withPage}. */
	static JobQuery check(JobQuery query) {
		checkPageSize(query.limit());
		if (query.queue() != null) {
			OjsNames.checkQueue(query.queue(), "queue");
		}
		if (query.id() != null) {
			jobId(query.id());
		}
		return query;
	}

	private static void checkPageSize(int size) {
		if (size < 1 || size > MAX_PAGE) {
			throw new OjsValidationException("per_page", "per_page must be between 1 and " + MAX_PAGE);
		}
	}

	private static String jobId(String id) {
		try {
			return UUID.fromString(id).toString();
		}
		catch (IllegalArgumentException ex) {
			throw new OjsValidationException("id", "id must be a UUID: " + id);
		}
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

	/** A bulk operation of {@link #bulk}, with the states it applies to. */
	public enum BulkAction {

		/** Back in line: discarded (dead letters included) and cancelled jobs. */
		RETRY(Set.of(JobState.DISCARDED, JobState.CANCELLED), "discarded, cancelled or dead_letter"),

		/** Cancelled: live jobs. */
		CANCEL(Set.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.ACTIVE, JobState.RETRYABLE,
				JobState.PENDING), "scheduled, available, active or retryable"),

		/** Deleted: terminal jobs. */
		DELETE(Set.of(JobState.COMPLETED, JobState.DISCARDED, JobState.CANCELLED),
				"completed, discarded, cancelled or dead_letter");

		private final Set<JobState> states;

		private final String named;

		BulkAction(Set<JobState> states, String named) {
			this.states = states;
			this.named = named;
		}

		/** The action's name in requests: {@code retry}, {@code cancel}, {@code delete}. */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private AdminStore admin() {
		if (this.admin == null) {
			throw new UnsupportedOperationException(this.store.getClass().getName() + " offers no job queries");
		}
		return this.admin;
	}

}
