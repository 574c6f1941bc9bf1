package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;

import dev.ojs.job.Job;

/**
 * H2 2.2+. H2 accepts {@code FOR UPDATE SKIP LOCKED} but applies the row limit before
 * skipping, so a second concurrent claim finds nothing while the first holds the top rows
 * (verified on 2.3.232 and 2.4.240). Claims are therefore optimistic and still one
 * statement: {@code SELECT ... FROM FINAL TABLE (UPDATE ... WHERE id IN (<first n due ids>)
 * AND state IN (<claimable>) AND scheduled_at <= ?)}. H2 re-checks the guard after waiting
 * for a row lock, so two nodes racing for the same rows never both claim one: the loser gets
 * fewer rows and polls again.
 */
final class H2Dialect extends JdbcDialect {

	H2Dialect(JdbcStoreSettings settings, DataSource dataSource) {
		super(JdbcPlatform.H2, settings, dataSource);
	}

	@Override
	String liveUniqueKeyPredicate() {
		return "type = ? AND live_unique_key = ?";
	}

	/**
	 * Look up the live holder, else insert; a concurrent insert of the same key makes the
	 * unique index reject ours (H2 rolls back only that statement), and the caller retries.
	 * H2 reads never see a holder committed after a REPEATABLE READ transaction's snapshot
	 * (not even {@code FOR UPDATE}), so there the retries end in a concurrency failure.
	 */
	@Override
	@Nullable String insertUnique(InsertRow row) {
		String existing = findLiveIdByUniqueKey(row.type(), row.uniqueKey());
		if (existing != null) {
			return existing;
		}
		try {
			this.jdbc.update(insertSql(1), (ps) -> bindInsert(ps, 1, row));
			return row.id();
		}
		catch (DuplicateKeyException ex) {
			return null;
		}
	}

	/** The generated column {@code live_expires_at} is {@code expires_at} while the job waits to run. */
	@Override
	String expiredPredicate() {
		return "live_expires_at <= ?";
	}

	@Override
	String expiryOrder() {
		return "live_expires_at";
	}

	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now) {
		List<String> types = anyType(visibilityByType) ? List.of() : new ArrayList<>(visibilityByType.keySet());
		String sql = "SELECT " + SELECT_COLUMNS + " FROM FINAL TABLE (UPDATE " + this.table
				+ " SET state = 'active', attempt = attempt + 1, locked_by = ?, started_at = ?, locked_until = "
				+ lockedUntilExpression(visibilityByType, "type") + " WHERE id IN (SELECT id FROM " + this.table
				+ " WHERE claim_queue = ? AND scheduled_at <= ?" + NOT_EXPIRED + typeFilter(types)
				+ " ORDER BY claim_rank, scheduled_at, id LIMIT ?) AND state IN (" + CLAIMABLE
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
			ps.setInt(index++, limit);
			setInstant(ps, index, now);
		}, this::mapJob);
		jobs.sort(CLAIM_ORDER);
		return jobs;
	}

}
