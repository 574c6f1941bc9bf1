package dev.ojs.spring;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.JobPage;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;

/**
 * The dead letter queue (ojs-dead-letter.md): jobs discarded with the dead-letter flag, never
 * plain discarded ones. Lists them (by offset, after a cursor, or by an Admin API query),
 * counts and groups them, retries and deletes one or many. A retry puts the job back in line
 * ({@code available}, attempt 0, same id and retry policy) and keeps its error history. The
 * HTTP binding, the Admin API and the {@code deadletters} actuator endpoint all go through it.
 * <p>
 * The Admin API's queries ({@link #list(JobQuery)}, {@link #groups}, the bulk operations)
 * need an {@link AdminStore}, which the JDBC job store has.
 */
public class OjsDeadLetters {

	/**
	 * The name of the dead-letter state on every surface: a dead letter is a {@code discarded}
	 * job with the dead-letter flag, counted here and not as {@code discarded}.
	 */
	public static final String STATE = "dead_letter";

	/** Largest page of {@link #list(DeadLetterFilter, String, int, int)}. */
	public static final int MAX_PAGE_SIZE = 1000;

	/** Groups, the largest first, that {@link #groups} gives a sample error message. */
	public static final int SAMPLED_GROUPS = 20;

	private final JobStore jobs;

	private final @Nullable AdminStore admin;

	/**
	 * @param jobs the job store
	 */
	public OjsDeadLetters(JobStore jobs) {
		this(jobs, null);
	}

	/**
	 * @param jobs the job store
	 * @param admin the Admin API's queries over the same jobs, or {@code null} without them
	 */
	public OjsDeadLetters(JobStore jobs, @Nullable AdminStore admin) {
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.admin = admin;
	}

	/** The dead letter of this id, if there is one. */
	public Optional<Job> find(String id) {
		return this.jobs.find(id).filter(Job::deadLetter);
	}

	/**
	 * Dead letters matching the filter, newest first.
	 * @param offset how many to skip, at least 0
	 * @param limit page size, from 1 to {@value #MAX_PAGE_SIZE}
	 * @throws OjsValidationException naming {@code limit}, {@code offset} or {@code from}
	 */
	public Page list(DeadLetterFilter filter, int offset, int limit) {
		return list(filter, null, offset, limit);
	}

	/**
	 * Dead letters matching the filter, newest first, from an offset or after a cursor: the
	 * {@link Page#nextCursor()} of the page before. A cursor is a keyset position (dead-lettered
	 * time, id), so the page after it neither skips nor repeats dead letters when newer ones
	 * arrive.
	 * @param cursor where the page starts, or {@code null} to start at {@code offset}
	 * @param offset how many to skip without a cursor, at least 0
	 * @param limit page size, from 1 to {@value #MAX_PAGE_SIZE}
	 * @throws OjsValidationException naming {@code limit}, {@code offset}, {@code cursor} or
	 * {@code from}
	 */
	public Page list(DeadLetterFilter filter, @Nullable String cursor, int offset, int limit) {
		if (limit < 1 || limit > MAX_PAGE_SIZE) {
			throw new OjsValidationException("limit", "'limit' must be from 1 to " + MAX_PAGE_SIZE + ".");
		}
		if (offset < 0) {
			throw new OjsValidationException("offset", "'offset' must not be negative.");
		}
		check(filter);
		List<Job> found;
		if (cursor != null) {
			Cursor after = Cursor.decode(cursor);
			found = this.jobs.findDeadLettersBefore(filter, after.discardedAt(), after.id(), limit + 1);
		}
		else {
			found = this.jobs.findDeadLetters(filter, offset, limit + 1);
		}
		// one more than asked tells whether there is a next page
		boolean hasMore = found.size() > limit;
		List<Job> items = hasMore ? List.copyOf(found.subList(0, limit)) : List.copyOf(found);
		return new Page(items, this.jobs.countDeadLetters(filter), hasMore,
				hasMore ? Cursor.of(items.get(items.size() - 1)).encode() : null);
	}

	/** How many dead letters match the filter. */
	public long count(DeadLetterFilter filter) {
		return this.jobs.countDeadLetters(check(filter));
	}

	/** Total, counts by queue and by latest error type, oldest and newest. */
	public DeadLetterStats stats() {
		return this.jobs.deadLetterStats();
	}

	/**
	 * A page of the dead letters matching the Admin API's query (its state ignored).
	 * @throws OjsValidationException naming {@code per_page}, {@code queue} or {@code id}
	 * when the query breaks the rules of {@link OjsJobs#filter} and {@link OjsJobs#withPage}
	 */
	public JobPage list(JobQuery query) {
		return admin().jobs(deadLetters(query));
	}

	/**
	 * Dead letters matching the query (its page ignored) by latest error type, job type and
	 * queue, the largest group first; the first {@value #SAMPLED_GROUPS} with the message of
	 * one member's latest error.
	 */
	public List<Group> groups(JobQuery query) {
		JobQuery deadLetters = deadLetters(query);
		List<DeadLetterGroup> groups = admin().deadLetterGroups(deadLetters);
		List<Group> sampled = new ArrayList<>(groups.size());
		for (DeadLetterGroup group : groups) {
			sampled.add(new Group(group, (sampled.size() < SAMPLED_GROUPS) ? sampleMessage(deadLetters, group) : null));
		}
		return sampled;
	}

	/**
	 * Retries one dead letter.
	 * @return the job as stored now
	 * @throws NoSuchElementException when no dead letter has this id
	 * @throws IllegalStateException when it changed meanwhile or another live job holds its
	 * unique key
	 */
	public Job retry(String id) {
		requireDeadLetter(id);
		if (!this.jobs.retryDeadLetter(id)) {
			throw new IllegalStateException(
					"Job " + id + " changed state meanwhile or another live job holds its unique key");
		}
		return this.jobs.find(id).orElseThrow(() -> notFound(id));
	}

	/** Retries every dead letter matching the filter; returns how many went back in line. */
	public int retryAll(DeadLetterFilter filter) {
		return this.jobs.retryDeadLetters(check(filter));
	}

	/**
	 * Deletes one dead letter.
	 * @throws NoSuchElementException when no dead letter has this id
	 * @throws IllegalStateException when it stopped being one meanwhile
	 */
	public void delete(String id) {
		requireDeadLetter(id);
		if (!this.jobs.deleteDeadLetter(id)) {
			throw new IllegalStateException("Job " + id + " is not a dead letter");
		}
	}

	/**
	 * Retries, oldest first, up to {@code limit} of the dead letters matching the query; only
	 * counts them unless {@code confirm}.
	 */
	public BulkResult retry(JobQuery query, boolean confirm, int limit) {
		return BulkResult.run(admin(), deadLetters(query), confirm, limit, admin()::retry);
	}

	/**
	 * Deletes, oldest first, up to {@code limit} of the dead letters matching the query; only
	 * counts them unless {@code confirm}.
	 */
	public BulkResult delete(JobQuery query, boolean confirm, int limit) {
		return BulkResult.run(admin(), deadLetters(query), confirm, limit, admin()::delete);
	}

	private @Nullable String sampleMessage(JobQuery query, DeadLetterGroup group) {
		if (group.errorType() == null) {
			return null;
		}
		JobQuery members = new JobQuery(query.state(), query.deadLetter(), group.queue(), group.type(), false,
				group.errorType(), query.since(), query.until(), null, null, 1, false);
		ErrorEntry error = admin().ids(members, 1)
			.stream()
			.findFirst()
			.flatMap(this.jobs::find)
			.map(Job::lastError)
			.orElse(null);
		return (error != null) ? error.message() : null;
	}

	private void requireDeadLetter(String id) {
		if (find(id).isEmpty()) {
			throw notFound(id);
		}
	}

	private AdminStore admin() {
		if (this.admin == null) {
			throw new UnsupportedOperationException("The Admin API's dead-letter queries need the JDBC job store");
		}
		return this.admin;
	}

	private static JobQuery deadLetters(JobQuery query) {
		return OjsJobs.check(query).withState(JobState.DISCARDED, true);
	}

	private static DeadLetterFilter check(DeadLetterFilter filter) {
		if (filter.from() != null && filter.to() != null && filter.from().isAfter(filter.to())) {
			throw new OjsValidationException("from",
					"'from' (" + filter.from() + ") must not be after 'to' (" + filter.to() + ")");
		}
		return filter;
	}

	private static NoSuchElementException notFound(String id) {
		return new NoSuchElementException("No dead letter " + id);
	}

	/**
	 * A page of dead letters.
	 *
	 * @param items the dead letters, newest first
	 * @param total how many match the filter
	 * @param hasMore whether more follow
	 * @param nextCursor where the next page starts, or {@code null} after the last
	 */
	public record Page(List<Job> items, long total, boolean hasMore, @Nullable String nextCursor) {

	}

	/**
	 * A group of dead letters.
	 *
	 * @param group the latest error type, job type, queue, count and times
	 * @param sampleMessage one member's latest error message, or {@code null}
	 */
	public record Group(DeadLetterGroup group, @Nullable String sampleMessage) {

	}

	/** A keyset position: the last dead letter of a page, opaque to clients (base64url). */
	record Cursor(Instant discardedAt, String id) {

		static Cursor of(Job job) {
			return new Cursor(Objects.requireNonNull(job.discardedAt()), job.id());
		}

		String encode() {
			return Base64.getUrlEncoder()
				.withoutPadding()
				.encodeToString((this.discardedAt + "|" + this.id).getBytes(StandardCharsets.UTF_8));
		}

		static Cursor decode(String cursor) {
			try {
				String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
				int bar = text.indexOf('|');
				return new Cursor(Instant.parse(text.substring(0, bar)), text.substring(bar + 1));
			}
			catch (RuntimeException ex) {
				throw new OjsValidationException("cursor", "'cursor' is not a cursor this server returned.");
			}
		}

	}

}
