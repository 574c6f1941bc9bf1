package dev.ojs.jdbc;

import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.MutableClock;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractJdbcJobStoreTests} on MariaDB, plus guarded writes through a driver that
 * reports no per-row update counts.
 */
class MariaDbJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

	@Test
	void noVacuumWarning() {
		assertThat(this.schema.newStore().vacuumWarning()).isEmpty();
	}

	@Test
	void bulkBatchesWithoutUpdateCountsStillRejectStaleWrites() {
		TestDatabases.Database database = this.schema.database();
		String url = database.jdbcUrl() + (database.jdbcUrl().contains("?") ? "&" : "?") + "useBulkStmts=true";
		try (HikariDataSource bulk = new HikariDataSource()) {
			bulk.setJdbcUrl(url);
			bulk.setUsername(database.username());
			bulk.setPassword(database.password());
			bulk.setMaximumPoolSize(2);
			MutableClock clock = MutableClock.startingNow();
			JdbcJobStore store = new JdbcJobStore(bulk, this.schema.settings(), clock);
			store.insert(List.of(job("email.send").build(), job("email.send").build(), job("email.send").build()));
			// the driver answers a bulk batch with SUCCESS_NO_INFO, even for a row it did not change
			int[] counts = new JdbcTemplate(bulk).batchUpdate("UPDATE " + this.schema.tableName()
					+ " SET priority = 0 WHERE id = ?", List.of(new Object[] { "none-1" }, new Object[] { "none-2" }));
			assertThat(counts).containsOnly(Statement.SUCCESS_NO_INFO);
			List<Job> claimed = store.claim("node-a", "default", Map.of("email.send", Duration.ofSeconds(10)), 3);
			clock.advance(Duration.ofSeconds(11));
			Job fresh = claimed.get(0);
			store.heartbeat("node-a", List.of(fresh.id()), clock.instant().plusSeconds(10));
			// the other two are reaped: their completions and failures are stale
			assertThat(store.reapExpired(10, (job) -> new AttemptFailure(job, JobState.RETRYABLE,
					clock.instant().plusSeconds(60), List.of(), false, clock.instant()))).hasSize(2);
			assertThat(store.complete(List.of(claimed.get(1), fresh), false)).containsExactly(fresh.id());
			assertThat(store.fail(List.of(new AttemptFailure(claimed.get(2), JobState.DISCARDED, null, List.of(), true,
					clock.instant())))).isEmpty();
			assertThat(store.find(fresh.id()).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
			assertThat(store.find(claimed.get(1).id()).orElseThrow().state()).isEqualTo(JobState.RETRYABLE);
			assertThat(store.find(claimed.get(2).id()).orElseThrow().state()).isEqualTo(JobState.RETRYABLE);
		}
	}

}
