package dev.ojs.admin;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.worker.NodeInfo;

/**
 * The reads and bulk writes of the OJS Admin API (ojs-admin-api.md §5–12) that the
 * {@link dev.ojs.job.JobStore} does not offer: keyset-paged, filtered job lists with cheap
 * counts, queue summaries, dead-letter groups, worker nodes and statistics.
 */
public interface AdminStore {

	/** Pages at most this long. */
	int MAX_PAGE = 100;

	/** A page of jobs matching the query, and their count. */
	JobPage jobs(JobQuery query);

	/**
	 * How many jobs match the query (its page ignored): exact up to {@code exactUpTo},
	 * beyond that possibly an estimate.
	 */
	JobCount count(JobQuery query, long exactUpTo);

	/** Ids of up to {@code limit} jobs matching the query (its page ignored), oldest first. */
	List<String> ids(JobQuery query, int limit);

	/** Every queue that holds a job or has a stored state, in name order. */
	List<QueueSummary> queues();

	Optional<QueueSummary> queue(String name);

	/** Dead letters matching the query (its page ignored), grouped, largest group first. */
	List<DeadLetterGroup> deadLetterGroups(JobQuery query);

	/**
	 * Puts discarded (dead letters included) and cancelled jobs back in line: state
	 * {@code available}, attempt 0, error history kept. A job whose unique key another live
	 * job holds stays where it is.
	 * @return how many were put back
	 */
	int retry(Collection<String> ids);

	/** Deletes those of the jobs that are in a terminal state; returns how many. */
	int delete(Collection<String> ids);

	/** Deletes up to {@code limit} jobs of the queue in these (terminal) states created before {@code olderThan}. */
	int purge(String queue, Set<JobState> states, @Nullable Instant olderThan, int limit);

	/** How many {@link #purge} would delete without a limit. */
	long countPurgeable(String queue, Set<JobState> states, @Nullable Instant olderThan);

	/** Worker nodes as of their latest heartbeat, by id. */
	List<NodeInfo> nodes();

	/**
	 * Outcome counters per queue (or summed as queue {@code "*"} when {@code queue} is
	 * {@code null}) in periods of {@code periodMinutes}, between {@code since} (inclusive) and
	 * {@code until} (exclusive), oldest first; periods without outcomes are left out.
	 */
	List<StatsBucket> stats(Instant since, Instant until, int periodMinutes, @Nullable String queue);

	/** Outcome counters per queue summed between {@code since} and {@code until}, by queue name. */
	Map<String, StatsBucket> statsByQueue(Instant since, Instant until);

	/** The job types with the most failed jobs since {@code since}, most first. */
	List<FailingType> topFailing(Instant since, int limit);

	/** The store's clock, at the precision stored. */
	Instant now();

}
