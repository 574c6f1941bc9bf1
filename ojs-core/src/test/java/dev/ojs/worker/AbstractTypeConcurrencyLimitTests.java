package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.job.TypeLimit;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Concurrency limits of job types on all nodes together ({@code @OjsJob(globalConcurrency)}):
 * at most the limit of a type's jobs are active at once, whatever the queue, the number of
 * nodes and threads claiming, and the kind of claim (of named types, as in-process pollers
 * claim, or of any type, as HTTP workers fetch without types). Run against each database by a
 * subclass.
 */
abstract class AbstractTypeConcurrencyLimitTests extends QueueLimitTestSupport {

	static final String OTHER = "other.job";

	static final Map<String, Duration> BOTH = both();

	static final Map<String, Duration> ANY = Map.of(WorkerStore.ANY_TYPE, Duration.ofMinutes(5));

	@BeforeEach
	void clearLimits() {
		new JdbcTemplate(this.schema.dataSource()).update("DELETE FROM " + this.schema.settings().limitsTableName());
	}

	@Test
	void aClaimTakesNoMoreJobsOfATypeThanItsFreeSlots() {
		JdbcJobStore store = store();
		insert(store, 10, TYPE);
		insert(store, 10, OTHER);
		store.setTypeConcurrency(TYPE, 3);
		assertThat(store.typeLimits()).containsExactly(Map.entry(TYPE, new TypeLimit(3, null)));

		List<Job> first = store.claim("a", QUEUE, BOTH, 20);
		assertThat(count(first, TYPE)).isEqualTo(3);
		assertThat(count(first, OTHER)).as("a type without a limit is not held back").isEqualTo(10);
		assertThat(store.claim("b", QUEUE, BOTH, 20)).isEmpty();
		store.complete(first.stream().filter((job) -> job.type().equals(TYPE)).limit(2).toList(), false);
		assertThat(store.claim("b", QUEUE, Map.of(TYPE, Duration.ofMinutes(5)), 20)).hasSize(2);
		assertThat(countActive(TYPE)).isEqualTo(3);
	}

	/**
	 * A claim counts a type's active jobs only when the claims since the last count could reach
	 * its limit (jobs that ended since are taken off at that count); a limit set over jobs
	 * already running counts them at its first claim.
	 */
	@Test
	void activeJobsOfATypeAreCountedWhenItsLimitCouldBind() {
		JdbcJobStore store = store();
		insert(store, 30, TYPE);
		// the claim the bound admits is an HTTP worker's, of any type
		assertCountedOnlyWhenTheLimitCouldBind(store, (limit) -> store.setTypeConcurrency(TYPE, limit), ANY,
				() -> activeMax(this.schema.settings().limitsTableName(), "type:" + TYPE), () -> countActive(TYPE));
	}

	/** An HTTP worker's fetch of any type hands back the jobs beyond the limit, unclaimed. */
	@Test
	void aClaimOfAnyTypeHandsBackTheJobsBeyondTheLimit() {
		JdbcJobStore store = store();
		List<String> limited = insert(store, 6, TYPE);
		insert(store, 4, OTHER);
		store.setTypeConcurrency(TYPE, 2);
		List<Job> claimed = store.claim("http:w1", QUEUE, ANY, 10);
		assertThat(count(claimed, TYPE)).isEqualTo(2);
		assertThat(count(claimed, OTHER)).isEqualTo(4);
		assertThat(limited.stream().map((id) -> store.find(id).orElseThrow())
			.filter((job) -> job.state() == JobState.AVAILABLE)).hasSize(4)
			.allSatisfy((job) -> {
				assertThat(job.attempt()).as("the attempt is not consumed").isZero();
				assertThat(job.lockedBy()).isNull();
			});
		assertThat(store.claim("http:w2", QUEUE, ANY, 10)).isEmpty();
	}

	@Test
	void queueAndTypeLimitsHoldTogether() {
		JdbcJobStore store = store();
		insert(store, 10, TYPE);
		insert(store, 10, OTHER);
		store.setConcurrency(QUEUE, 5);
		store.setTypeConcurrency(TYPE, 2);
		List<Job> claimed = store.claim("a", QUEUE, BOTH, 20);
		assertThat(claimed).hasSize(5);
		assertThat(count(claimed, TYPE)).isEqualTo(2);
		assertThat(store.claim("a", QUEUE, BOTH, 20)).isEmpty();
	}

	@Test
	void aTypeLimitHoldsAcrossQueuesAndComesOffWhenRemoved() {
		JdbcJobStore store = store();
		store.insert(List.of(job(TYPE).queue("q1").build(), job(TYPE).queue("q1").build(), job(TYPE).queue("q2").build(),
				job(TYPE).queue("q2").build()));
		store.setTypeConcurrency(TYPE, 1);
		assertThat(store.claim("a", "q1", BOTH, 5)).hasSize(1);
		assertThat(store.claim("a", "q2", BOTH, 5)).as("the type's slot is taken in another queue").isEmpty();
		store.setTypeConcurrency(TYPE, null);
		assertThat(store.typeLimits()).isEmpty();
		assertThat(store.claim("a", "q2", BOTH, 5)).hasSize(2);
		assertThatIllegalArgumentException().isThrownBy(() -> store.setTypeConcurrency(TYPE, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> store.setTypeConcurrency(" ", 1));
	}

	/**
	 * Four nodes (stores) with six threads each, half claiming named types as pollers do, half
	 * any type as HTTP workers do, run the jobs of a type limited to 3 mixed with jobs of a type
	 * without a limit: the limited type's active jobs, counted by the threads and sampled in the
	 * database, never exceed 3, and every job completes.
	 */
	@Test
	void fourNodesClaimingNamedAndAnyTypesNeverRunMoreThanTheLimit() throws Exception {
		List<JdbcJobStore> nodes = List.of(store(), store(), store(), store());
		List<String> ids = new ArrayList<>(insert(nodes.get(0), 80, TYPE));
		ids.addAll(insert(nodes.get(0), 80, OTHER));
		nodes.get(0).setTypeConcurrency(TYPE, 3);
		ClaimRace.Result race = ClaimRace.run(nodes, 6, ids.size(),
				(node, n, t) -> node.claim("node-" + n + "-" + t, QUEUE, (t % 2 == 0) ? BOTH : ANY, 3),
				(jobs) -> count(jobs, TYPE), () -> countActive(TYPE));
		assertThat(race.samples()).as("active jobs of the type sampled in the database").isNotEmpty()
			.allMatch((count) -> count <= 3);
		assertThat(race.maxRunning()).as("jobs of the type running at once").isEqualTo(3);
		assertThat(race.completed()).isEqualTo(ids.size());
		assertThat(ids).allMatch((id) -> nodes.get(0).find(id).orElseThrow().state() == JobState.COMPLETED);
	}

	/** In-process workers on two nodes with 10 slots each run no more than the type's 2 at once, and reach 2. */
	@Test
	void workersOnTwoNodesRunNoMoreThanTheTypeLimit() {
		JdbcJobStore operator = this.schema.newStore();
		operator.setTypeConcurrency(TYPE, 2);
		assertThat(mostRunningOnTwoNodes(operator, Duration.ofSeconds(5), () -> insert(operator, 20, TYPE))).isEqualTo(2);
	}

	@Test
	void aClaimTakesAtMostTheLimitPerKey() {
		JdbcJobStore store = store();
		store.insert(List.of(keyed("a"), keyed("a"), keyed("a"), keyed("b"), keyed("b"), job(TYPE).queue(QUEUE).build(),
				job(TYPE).queue(QUEUE).build()));
		store.setTypeLimit(TYPE, new TypeLimit(null, 1));
		List<Job> first = store.claim("n", QUEUE, BOTH, 20);
		assertThat(first).as("one of a, one of b, both without a key").hasSize(4);
		assertThat(store.claim("n", QUEUE, BOTH, 20)).isEmpty();
		assertThat(store.claim("http:w", QUEUE, ANY, 20)).isEmpty();
		assertThat(countAvailable()).as("the jobs beyond a key's limit are handed back").isEqualTo(3);
		store.complete(first, false);
		assertThat(store.claim("n", QUEUE, BOTH, 20)).hasSize(2);
	}

	@Test
	void aClaimOfAnyTypeHoldsToTheLimitPerKeyAndTheTypesLimit() {
		JdbcJobStore store = store();
		store.insert(List.of(keyed("a"), keyed("a"), keyed("b"), keyed("c"), keyed("d"), job(OTHER).queue(QUEUE).build()));
		store.setTypeLimit(TYPE, new TypeLimit(2, 1));
		List<Job> claimed = store.claim("http:w", QUEUE, ANY, 20);
		assertThat(count(claimed, TYPE)).isEqualTo(2);
		assertThat(count(claimed, OTHER)).isEqualTo(1);
		assertThat(countAvailable()).isEqualTo(3);
		assertThat(store.typeLimits()).containsEntry(TYPE, new TypeLimit(2, 1));
	}

	/**
	 * 50 keys with 4 jobs each, inserted key after key, a limit of 1 per key: four nodes with
	 * four threads each, half claiming named types, half any type, never run two jobs of one
	 * key at once (sampled in the database), and every key's jobs complete.
	 */
	@Test
	void fourNodesNeverRunTwoJobsOfOneKeyAndEveryKeyCompletes() throws Exception {
		List<JdbcJobStore> nodes = List.of(store(), store(), store(), store());
		List<NewJob> jobs = new ArrayList<>();
		for (int key = 0; key < 50; key++) {
			for (int i = 0; i < 4; i++) {
				jobs.add(keyed("k" + key));
			}
		}
		List<String> ids = nodes.get(0).insert(jobs);
		nodes.get(0).setTypeLimit(TYPE, new TypeLimit(null, 1));
		ClaimRace.Result race = ClaimRace.run(nodes, 4, ids.size(),
				(node, n, t) -> node.claim("node-" + n + "-" + t, QUEUE, (t % 2 == 0) ? BOTH : ANY, 3), List::size,
				this::mostActiveOfOneKey);
		assertThat(race.samples()).as("the most active jobs of one key, sampled in the database").isNotEmpty()
			.allMatch((count) -> count <= 1);
		assertThat(race.maxRunning()).as("keys run side by side").isGreaterThan(1);
		assertThat(race.completed()).isEqualTo(ids.size());
		assertThat(ids).allMatch((id) -> nodes.get(0).find(id).orElseThrow().state() == JobState.COMPLETED);
	}

	private static NewJob keyed(String key) {
		return job(TYPE).queue(QUEUE).concurrencyKey(key).build();
	}

	private long countAvailable() {
		Long count = new JdbcTemplate(this.schema.dataSource()).queryForObject("SELECT count(*) FROM "
				+ this.schema.tableName() + " WHERE state = 'available' AND attempt = 0 AND locked_by IS NULL", Long.class);
		return (count != null) ? count : 0;
	}

	private long mostActiveOfOneKey() {
		List<Long> counts = new JdbcTemplate(this.schema.dataSource()).queryForList("SELECT count(*) FROM "
				+ this.schema.tableName() + " WHERE state = 'active' AND type = ? GROUP BY concurrency_key", Long.class, TYPE);
		return counts.stream().mapToLong(Long::longValue).max().orElse(0);
	}

	private List<String> insert(JdbcJobStore store, int count, String type) {
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			jobs.add(job(type).queue(QUEUE).args("[" + i + "]").build());
		}
		return store.insert(jobs);
	}

	private static int count(List<Job> jobs, String type) {
		return (int) jobs.stream().filter((job) -> job.type().equals(type)).count();
	}

	private long countActive(String type) {
		Long count = new JdbcTemplate(this.schema.dataSource()).queryForObject(
				"SELECT count(*) FROM " + this.schema.tableName() + " WHERE state = 'active' AND type = ?", Long.class,
				type);
		return (count != null) ? count : 0;
	}

	private static Map<String, Duration> both() {
		Map<String, Duration> both = new LinkedHashMap<>();
		both.put(TYPE, Duration.ofMinutes(5));
		both.put(OTHER, Duration.ofMinutes(5));
		return both;
	}

}
