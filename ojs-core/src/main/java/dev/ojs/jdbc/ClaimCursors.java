package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * Where the next PostgreSQL claim of a queue with a backlog starts: right after the last job
 * the node's previous claim of the same queue and types took, within its priority
 * ({@code priority = p AND (scheduled_at, id) > (t, i)}), an index range past the dead
 * entries that claimed jobs leave until the table is vacuumed. A claim from the front, in
 * exact claim order, still runs whenever there is no backlog, when a resumed claim comes back
 * short, and at least every {@link #RESCAN_INTERVAL}: so under a backlog a job that sorts
 * first (higher priority, released, committed late) may wait up to that long.
 */
final class ClaimCursors {

	/** How long claims of a backlogged queue may resume before one starts from the front. */
	static final Duration RESCAN_INTERVAL = Duration.ofMillis(200);

	/**
	 * The claim-order key of the last job claimed, and when the last claim from the front ran.
	 * @param priority the job's priority
	 * @param scheduledAt its {@code scheduled_at}
	 * @param id its id
	 * @param frontClaimAt when the last claim from the front ran
	 */
	record Cursor(int priority, Instant scheduledAt, String id, Instant frontClaimAt) {
	}

	/**
	 * Whose cursor: a node's claims of a queue for one set of job types.
	 * @param nodeId the claiming node
	 * @param queue the queue
	 * @param types the job types claimed together
	 */
	record Key(String nodeId, String queue, Set<String> types) {

		Key {
			types = Set.copyOf(types);
		}

	}

	private final Map<Key, Cursor> cursors = new ConcurrentHashMap<>();

	/** Where the next claim for {@code key} at {@code now} resumes, or {@code null} to start from the front. */
	@Nullable Cursor resumeAt(Key key, Instant now) {
		Cursor cursor = this.cursors.get(key);
		if (cursor == null || now.isBefore(cursor.frontClaimAt())
				|| !now.isBefore(cursor.frontClaimAt().plus(RESCAN_INTERVAL))) {
			return null;
		}
		return cursor;
	}

	/**
	 * Records a claim: resume after its last job while claims fill every free slot.
	 * @param key whose claim it was
	 * @param claimed the jobs claimed, in claim order
	 * @param limit the free slots the claim asked for
	 * @param frontClaimAt when the last claim from the front ran (this one's time if it was one)
	 */
	void claimed(Key key, List<Job> claimed, int limit, Instant frontClaimAt) {
		if (claimed.isEmpty() || claimed.size() < limit) {
			this.cursors.remove(key);
			return;
		}
		Job last = claimed.get(claimed.size() - 1);
		this.cursors.put(key, new Cursor(last.priority(), last.scheduledAt(), last.id(), frontClaimAt));
	}

	/** The next claim for {@code key} starts from the front. */
	void forget(Key key) {
		this.cursors.remove(key);
	}

}
