package dev.ojs.spring.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsValidationException;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.util.Assert;

/**
 * {@link Endpoint @Endpoint} to inspect and operate the dead letter queue through
 * {@link OjsDeadLetters}: jobs that ended in the {@code discarded} state with the dead-letter
 * flag (spec §4 {@code on_exhaustion}, §7.1 {@code DEAD_LETTER}).
 * <p>
 * Over HTTP ({@code /actuator/deadletters}):
 * <ul>
 * <li>{@code GET /deadletters} lists dead letters, newest first, filtered by {@code queue},
 * {@code type}, {@code errorType} (type of the latest error), {@code from} and {@code to}
 * (ISO-8601 instants, dead-lettered at or after / before) and paginated with either
 * {@code page} (0-based) and {@code size} or {@code offset} and {@code limit} (default
 * {@value #DEFAULT_PAGE_SIZE}, at most {@value #MAX_PAGE_SIZE});</li>
 * <li>{@code GET /deadletters/{id}} shows one dead letter: args, meta, the full error
 * history, its retry policy and timestamps;</li>
 * <li>{@code GET /deadletters/stats} summarises the queue. {@code stats} is a reserved
 * selector (job ids are UUIDs, so no id collides with it), the way Boot's own
 * {@code quartz} endpoint routes {@code jobs} and {@code triggers} through one
 * selector;</li>
 * <li>{@code POST /deadletters/{id}} retries one dead letter: back to {@code available},
 * attempt reset to 0, same id and retry policy, error history kept;</li>
 * <li>{@code POST /deadletters} with {@code confirm=true} retries every dead letter
 * matching the same filters as the list; without it nothing changes and the request is
 * rejected;</li>
 * <li>{@code DELETE /deadletters/{id}} deletes one dead letter.</li>
 * </ul>
 * <p>
 * The endpoint's default access is {@link Access#READ_ONLY}: its reads are safe to expose,
 * and its write and delete operations are not available until the application allows
 * them with {@code management.endpoint.deadletters.access=unrestricted}.
 * <p>
 * The descriptors that operations return behind a general type are registered for
 * reflection, so that they serialize in a native image too.
 */
@Endpoint(id = "deadletters", defaultAccess = Access.READ_ONLY)
@RegisterReflectionForBinding({ DeadLettersEndpoint.DeadLetterDescriptor.class,
		DeadLettersEndpoint.DeadLetterStatsDescriptor.class, DeadLettersEndpoint.ConfirmationRequiredDescriptor.class,
		DeadLettersEndpoint.RetriedDescriptor.class })
public class DeadLettersEndpoint {

	/** Page size when the request names none. */
	public static final int DEFAULT_PAGE_SIZE = 20;

	/** Largest page size; larger requests are capped to it. */
	public static final int MAX_PAGE_SIZE = 200;

	/** The selector that shows {@link #stats()} instead of one dead letter. */
	public static final String STATS_SELECTOR = "stats";

	private final OjsDeadLetters deadLetters;

	private final Function<Job, RetryPolicyLayers> policyLayers;

	/**
	 * Creates an endpoint that shows each dead letter's own policy fields over the spec
	 * defaults.
	 * @param deadLetters the dead letter queue
	 */
	public DeadLettersEndpoint(OjsDeadLetters deadLetters) {
		this(deadLetters, (job) -> RetryPolicyLayers.spec().over(RetryPolicyLayers.JOB, job.retryPolicy()));
	}

	/**
	 * Creates an endpoint.
	 * @param deadLetters the dead letter queue
	 * @param policyLayers the layers of a job's retry policy (spec §8.1), e.g.
	 * {@link dev.ojs.spring.HandlerDirectory#layers}
	 */
	public DeadLettersEndpoint(OjsDeadLetters deadLetters, Function<Job, RetryPolicyLayers> policyLayers) {
		Assert.notNull(deadLetters, "'deadLetters' must not be null");
		Assert.notNull(policyLayers, "'policyLayers' must not be null");
		this.deadLetters = deadLetters;
		this.policyLayers = policyLayers;
	}

	/**
	 * Lists dead letters matching the filter, newest first.
	 * @param queue exact queue, or {@code null} for all
	 * @param type exact job type, or {@code null} for all
	 * @param errorType exact type of the latest error, or {@code null} for all
	 * @param from dead-lettered at or after, or {@code null}
	 * @param to dead-lettered before, or {@code null}
	 * @param page 0-based page number (with {@code size})
	 * @param size page size (with {@code page})
	 * @param offset number of dead letters to skip (with {@code limit})
	 * @param limit maximum number to return (with {@code offset})
	 * @return the page and the total number of matching dead letters
	 */
	@ReadOperation
	public DeadLetterPageDescriptor deadLetters(@Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable Instant from, @Nullable Instant to, @Nullable Integer page,
			@Nullable Integer size, @Nullable Integer offset, @Nullable Integer limit) {
		DeadLetterFilter filter = filter(queue, type, errorType, from, to);
		Window window = Window.of(page, size, offset, limit);
		OjsDeadLetters.Page found = validated(() -> this.deadLetters.list(filter, window.offset(), window.limit()));
		List<DeadLetterSummaryDescriptor> deadLetters = found.items()
			.stream()
			.map(DeadLetterSummaryDescriptor::of)
			.toList();
		return new DeadLetterPageDescriptor(found.total(), window.page(), window.offset(), window.limit(),
				deadLetters);
	}

	/**
	 * Shows one dead letter, or the {@linkplain #stats() statistics} for the reserved
	 * selector {@value #STATS_SELECTOR}.
	 * @param id the job id, or {@value #STATS_SELECTOR}
	 * @return a {@link DeadLetterDescriptor}, a {@link DeadLetterStatsDescriptor}, or
	 * {@code null} when no dead letter has this id
	 */
	@ReadOperation
	public @Nullable OperationResponseBody deadLetter(@Selector String id) {
		if (STATS_SELECTOR.equals(id)) {
			return stats();
		}
		return this.deadLetters.find(id)
			.map((job) -> DeadLetterDescriptor.of(job, this.policyLayers.apply(job)))
			.orElse(null);
	}

	/**
	 * Summarises the dead letter queue.
	 * @return total, counts by queue and by latest error type, oldest and newest
	 */
	public DeadLetterStatsDescriptor stats() {
		return DeadLetterStatsDescriptor.of(this.deadLetters.stats());
	}

	/**
	 * Retries one dead letter: back to {@code available}, attempt reset to 0, same id and
	 * retry policy, error history kept.
	 * @param id the job id
	 * @return the outcome, or {@code null} when no dead letter has this id
	 */
	@WriteOperation
	public @Nullable RetriedDescriptor retryDeadLetter(@Selector String id) {
		try {
			this.deadLetters.retry(id);
			return new RetriedDescriptor(1);
		}
		catch (NoSuchElementException | IllegalStateException ex) {
			return null;
		}
	}

	/**
	 * Retries every dead letter matching the filter, only when {@code confirm} is
	 * {@code true}.
	 * @param queue exact queue, or {@code null} for all
	 * @param type exact job type, or {@code null} for all
	 * @param errorType exact type of the latest error, or {@code null} for all
	 * @param from dead-lettered at or after, or {@code null}
	 * @param to dead-lettered before, or {@code null}
	 * @param confirm must be {@code true}
	 * @return how many dead letters were retried
	 * @throws InvalidEndpointRequestException when {@code confirm} is not {@code true};
	 * nothing is changed then
	 */
	@WriteOperation
	public RetriedDescriptor retryDeadLetters(@Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable Instant from, @Nullable Instant to, @Nullable Boolean confirm) {
		DeadLetterFilter filter = filter(queue, type, errorType, from, to);
		if (!Boolean.TRUE.equals(confirm)) {
			String message = confirmationRequired(filter).message();
			throw new InvalidEndpointRequestException(message, message);
		}
		return new RetriedDescriptor(validated(() -> this.deadLetters.retryAll(filter)));
	}

	/**
	 * Describes a bulk retry that was refused for want of {@code confirm=true}.
	 * @param filter the filter of the refused request
	 * @return the refusal, with the number of dead letters it would have retried
	 */
	ConfirmationRequiredDescriptor confirmationRequired(DeadLetterFilter filter) {
		long matching = validated(() -> this.deadLetters.count(filter));
		return new ConfirmationRequiredDescriptor("confirmation_required",
				"Retrying dead letters in bulk requires confirm=true; nothing was retried. " + matching
						+ " dead letter(s) match the filter.",
				matching);
	}

	/**
	 * Deletes one dead letter.
	 * @param id the job id
	 * @return whether a dead letter with this id was deleted
	 */
	@DeleteOperation
	public boolean deleteDeadLetter(@Selector String id) {
		try {
			this.deadLetters.delete(id);
			return true;
		}
		catch (NoSuchElementException | IllegalStateException ex) {
			return false;
		}
	}

	static DeadLetterFilter filter(@Nullable String queue, @Nullable String type, @Nullable String errorType,
			@Nullable Instant from, @Nullable Instant to) {
		return new DeadLetterFilter(blankToNull(queue), blankToNull(type), blankToNull(errorType), from, to);
	}

	/** The service's answer; a value it rejects is a {@code 400} with its message. */
	private static <T> T validated(Supplier<T> call) {
		try {
			return call.get();
		}
		catch (OjsValidationException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
		}
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value != null && !value.isBlank()) ? value : null;
	}

	/**
	 * The rows one list request reads: page/size or offset/limit, never both; a page larger
	 * than {@value #MAX_PAGE_SIZE} is capped. The service checks the offset and limit.
	 */
	record Window(@Nullable Integer page, int offset, int limit) {

		static Window of(@Nullable Integer page, @Nullable Integer size, @Nullable Integer offset,
				@Nullable Integer limit) {
			if ((page != null || size != null) && (offset != null || limit != null)) {
				throw invalid("Use either 'page' and 'size' or 'offset' and 'limit', not both");
			}
			if (offset != null || limit != null) {
				return new Window(null, (offset != null) ? offset : 0, capped(limit));
			}
			int resolvedSize = capped(size);
			int resolvedPage = (page != null) ? page : 0;
			if (resolvedPage < 0) {
				throw invalid("'page' must not be negative but was " + page);
			}
			long first = (long) resolvedPage * resolvedSize;
			if (first > Integer.MAX_VALUE) {
				throw invalid("'page' " + page + " is too large");
			}
			return new Window(resolvedPage, (int) first, resolvedSize);
		}

		private static int capped(@Nullable Integer value) {
			return (value != null) ? Math.min(value, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
		}

		private static InvalidEndpointRequestException invalid(String message) {
			return new InvalidEndpointRequestException(message, message);
		}

	}

	/**
	 * A page of dead letters.
	 *
	 * @param total number of dead letters matching the filter
	 * @param page the 0-based page number, or {@code null} when requested by offset
	 * @param offset number of matching dead letters skipped
	 * @param limit page size
	 * @param deadLetters the dead letters, newest first
	 */
	public record DeadLetterPageDescriptor(long total, @Nullable Integer page, int offset, int limit,
			List<DeadLetterSummaryDescriptor> deadLetters) implements OperationResponseBody {

	}

	/**
	 * A dead letter in a list.
	 *
	 * @param id the job id
	 * @param type the job type
	 * @param queue the queue
	 * @param attempt the attempt that failed last
	 * @param maxAttempts the policy's {@code max_attempts}
	 * @param lastError the latest error, or {@code null}
	 * @param createdAt when it was first inserted
	 * @param enqueuedAt when it was last put in line: at insert, or when last retried from the
	 * dead letter queue (a later value than {@code createdAt} marks a replayed job)
	 * @param deadLetteredAt when it was dead-lettered
	 */
	public record DeadLetterSummaryDescriptor(String id, String type, String queue, int attempt, int maxAttempts,
			@Nullable ErrorEntry lastError, Instant createdAt, Instant enqueuedAt, @Nullable Instant deadLetteredAt) {

		static DeadLetterSummaryDescriptor of(Job job) {
			return new DeadLetterSummaryDescriptor(job.id(), job.type(), job.queue(), job.attempt(), job.maxAttempts(),
					job.lastError(), job.createdAt(), job.enqueuedAt(), job.discardedAt());
		}

	}

	/**
	 * One dead letter in full.
	 *
	 * @param id the job id
	 * @param type the job type
	 * @param queue the queue
	 * @param priority the priority
	 * @param state the state ({@code discarded})
	 * @param attempt the attempt that failed last
	 * @param maxAttempts the policy's {@code max_attempts}
	 * @param args the job's arguments as JSON
	 * @param meta the job's metadata as JSON
	 * @param retryPolicy the effective retry policy as the spec's JSON object
	 * @param retryPolicySources for each field of {@code retryPolicy}, the layer it came from
	 * ({@code spec}, {@code application}, {@code handler} or {@code job})
	 * @param errors the error history, oldest first (spec §10.1)
	 * @param uniqueKey the unique key, or {@code null}
	 * @param createdAt when it was first inserted
	 * @param enqueuedAt when it was last put in line: at insert, or when last retried from the
	 * dead letter queue (a later value than {@code createdAt} marks a replayed job)
	 * @param scheduledAt when its last attempt was due
	 * @param startedAt when its last attempt started
	 * @param deadLetteredAt when it was dead-lettered
	 */
	public record DeadLetterDescriptor(String id, String type, String queue, int priority, String state, int attempt,
			int maxAttempts, @Nullable Object args, @Nullable Object meta, @Nullable Object retryPolicy,
			Map<String, String> retryPolicySources, List<ErrorEntry> errors, @Nullable String uniqueKey, Instant createdAt, Instant enqueuedAt,
			@Nullable Instant scheduledAt, @Nullable Instant startedAt, @Nullable Instant deadLetteredAt)
			implements OperationResponseBody {

		static DeadLetterDescriptor of(Job job, RetryPolicyLayers layers) {
			RetryPolicy policy = layers.effective();
			Integer maxAttempts = policy.maxAttempts();
			return new DeadLetterDescriptor(job.id(), job.type(), job.queue(), job.priority(), job.state().value(),
					job.attempt(), (maxAttempts != null) ? maxAttempts : job.maxAttempts(),
					JsonValues.parse(job.argsJson()), JsonValues.parse(job.metaJson()), JsonValues.policy(policy),
					layers.sources(), job.errors(),
					job.uniqueKey(), job.createdAt(), job.enqueuedAt(), job.scheduledAt(), job.startedAt(),
					job.discardedAt());
		}

	}

	/**
	 * Summary of the dead letter queue.
	 *
	 * @param total number of dead letters
	 * @param byQueue count per queue
	 * @param byErrorType count per latest error type
	 * @param oldest earliest dead-lettered time, or {@code null} when empty
	 * @param newest latest dead-lettered time, or {@code null} when empty
	 */
	public record DeadLetterStatsDescriptor(long total, Map<String, Long> byQueue, Map<String, Long> byErrorType,
			@Nullable Instant oldest, @Nullable Instant newest) implements OperationResponseBody {

		static DeadLetterStatsDescriptor of(DeadLetterStats stats) {
			return new DeadLetterStatsDescriptor(stats.total(), stats.byQueue(), stats.byErrorType(), stats.oldest(),
					stats.newest());
		}

	}

	/**
	 * The outcome of a retry.
	 *
	 * @param retried how many dead letters went back to {@code available}
	 */
	public record RetriedDescriptor(int retried) implements OperationResponseBody {

	}

	/**
	 * A bulk retry refused because it was not confirmed.
	 *
	 * @param error a stable error code, {@code confirmation_required}
	 * @param message what to do
	 * @param matching how many dead letters the request would have retried
	 */
	public record ConfirmationRequiredDescriptor(String error, String message, long matching)
			implements OperationResponseBody {

	}

}
