package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.ojs.job.Job;

/**
 * Claims on H2 2.2+. H2 accepts {@code FOR UPDATE SKIP LOCKED} but applies the row limit
 * before skipping, so a second concurrent claim finds nothing while the first holds the top
 * rows (verified on 2.3.232 and 2.4.240). Claims are therefore optimistic and still one
 * statement: {@code SELECT ... FROM FINAL TABLE (UPDATE ... WHERE id IN (<first n due ids>)
 * AND state IN (<claimable>) AND scheduled_at <= ?)}. H2 re-checks the guard after waiting
 * for a row lock, so two nodes racing for the same rows never both claim one: the loser gets
 * fewer rows and polls again.
 */
final class H2ClaimSql extends ClaimSql {

	H2ClaimSql(SqlSupport shared, JobRows rows) {
		super(shared, rows);
	}

	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now,
			Collection<String> excludedKeys) {
		List<String> types = anyType(visibilityByType) ? List.of() : new ArrayList<>(visibilityByType.keySet());
		String sql = "SELECT " + JobRows.SELECT_COLUMNS + " FROM FINAL TABLE (UPDATE " + this.table
				+ " SET state = 'active', attempt = attempt + 1, locked_by = ?, started_at = ?, locked_until = "
				+ lockedUntilExpression(visibilityByType, "type") + " WHERE id IN (SELECT id FROM " + this.table
				+ " c WHERE claim_queue = ? AND scheduled_at <= ?" + NOT_EXPIRED + typeFilter(types) + keyFilter(excludedKeys)
				+ sequenceFilter("c")
				+ " ORDER BY claim_rank, scheduled_at, id LIMIT ?) AND state IN (" + JobRows.CLAIMABLE
				+ ") AND scheduled_at <= ?)";
		List<Job> jobs = this.jdbc.query(sql, (ps) -> {
			ps.setString(1, nodeId);
			setInstant(ps, 2, now);
			int index = bindLockedUntil(ps, 3, visibilityByType, now);
			ps.setString(index++, queue);
			setInstant(ps, index++, now);
			setInstant(ps, index++, now);
			for (String type : types) {
				ps.setString(index++, type);
			}
			for (String key : excludedKeys) {
				ps.setString(index++, key);
			}
			ps.setInt(index++, limit);
			setInstant(ps, index, now);
		}, this.rows.lazily());
		jobs.sort(JobRows.CLAIM_ORDER);
		return jobs;
	}

}
