package dev.ojs.jdbc;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.admin.JobQuery;
import dev.ojs.admin.QueueSummary;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

class PostgresJdbcAdminStoreTests extends AbstractJdbcAdminStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	/**
	 * A table PostgreSQL believes large: queue counts are the planner's estimates, flagged, for
	 * the queues with a stored state (or a handler, recent outcomes, or ready jobs found by the
	 * loose index scan), all in one round trip, without counting.
	 */
	@Test
	void estimatesQueueCountsOfALargeTable() {
		this.store.insert(List.of(job("big.job").queue("big").build(), job("big.job").queue("big").build()));
		this.store.pauseQueue("big");
		this.store.insert(List.of(job("ready.job").queue("ready").build()));
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.execute("ANALYZE " + this.schema.tableName());
		jdbc.update("UPDATE pg_class SET reltuples = 1000000 WHERE oid = to_regclass(?)", this.schema.tableName());
		try {
			List<QueueSummary> queues = this.admin.queues();
			assertThat(queues).extracting(QueueSummary::name).containsExactly("big", "ready");
			QueueSummary big = queues.get(0);
			assertThat(big.countsEstimated()).isTrue();
			assertThat(big.paused()).isTrue();
			assertThat(big.count(JobState.AVAILABLE)).isPositive();
			assertThat(big.oldestAvailableAt()).isNotNull();
			assertThat(queues.get(1).countsEstimated()).isTrue();
			assertThat(queues.get(1).paused()).isFalse();
			assertThat(queues.get(1).oldestAvailableAt()).isNotNull();
		}
		finally {
			jdbc.execute("ANALYZE " + this.schema.tableName());
		}
	}

	/**
	 * §7.1 counts: a capped count the planner costs above the limit is not tried (the caller
	 * answers the estimate); below it the count is exact.
	 */
	@Test
	void triesCountsOnlyWhenThePlannerCostsThemLow() {
		this.store.insert(List.of(job("cost.job").build(), job("cost.job").build(), job("other.job").build()));
		AdminSql dialect = this.store.dialect().admin();
		JobQuery byType = new JobQuery(null, null, null, "cost.job", false, null, null, null, null, null, 20, false);
		assertThat(dialect.countUpTo(byType, 10, 1000, 1_000_000)).isEqualTo(2);
		assertThat(dialect.countUpTo(byType, 10, 1000, 0.001)).isNull();
	}

	/** The total cost of a plan's top line. */
	@Test
	void readsPlanCost() {
		assertThat(AdminSql.planCost("Aggregate  (cost=326.58..27660.06 rows=1 width=8)")).isEqualTo(27660.06);
		assertThat(AdminSql.planCost("Result")).isNull();
	}

}
