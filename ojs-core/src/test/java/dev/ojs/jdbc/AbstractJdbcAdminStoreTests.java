package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobPage;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.PageCursor;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.MutableClock;
import dev.ojs.worker.NodeInfo;
import dev.ojs.worker.RetentionSettings;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The Admin API's queries and bulk writes ({@link JdbcAdminStore}), the nodes and stats
 * tables the worker writes through {@link JdbcJobStore}, run against each database by a
 * subclass (ojs-admin-api.md §6–11).
 */
abstract class AbstractJdbcAdminStoreTests extends DatabaseTests {

	private static final String NODE = "node-1";

	MutableClock clock;

	JdbcJobStore store;

	JdbcAdminStore admin;

	@BeforeEach
	void setUp() {
		this.schema.clear();
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.update("DELETE FROM " + this.schema.settings().nodesTableName());
		jdbc.update("DELETE FROM " + this.schema.settings().statsTableName());
		jdbc.update("DELETE FROM " + this.schema.settings().queuesTableName());
		this.clock = MutableClock.startingNow();
		this.store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		this.admin = new JdbcAdminStore(this.store);
	}

	/** §7.1: keyset pages cover every job once, in order, also across equal created_at (one batch). */
	@Test
	void pagesByCursorWithoutGapsOrDuplicates() {
		List<String> ids = new ArrayList<>();
		for (int batch = 0; batch < 5; batch++) {
			ids.addAll(this.store.insert(IntStream.range(0, 7).mapToObj((i) -> job("page.job").build()).toList()));
			this.clock.advance(Duration.ofMillis(3));
		}
		for (boolean ascending : List.of(true, false)) {
			List<String> seen = new ArrayList<>();
			JobQuery query = new JobQuery(null, null, null, null, false, null, null, null, null, null, 4, ascending);
			PageCursor cursor = null;
			int pages = 0;
			do {
				JobPage page = this.admin.jobs(query.withPage(cursor, 4));
				assertThat(page.total()).isEqualTo(35);
				assertThat(page.totalIsEstimate()).isFalse();
				page.items().forEach((job) -> seen.add(job.id()));
				cursor = page.next();
				// the opaque cursor survives the round trip
				cursor = (cursor != null) ? PageCursor.decode(cursor.encode()) : null;
				pages++;
			}
			while (cursor != null);
			assertThat(pages).isEqualTo(9);
			assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
			List<Job> all = seen.stream().map((id) -> this.store.find(id).orElseThrow()).toList();
			List<Instant> created = all.stream().map(Job::createdAt).toList();
			List<Instant> sorted = new ArrayList<>(created);
			sorted.sort(ascending ? Instant::compareTo : (a, b) -> b.compareTo(a));
			assertThat(created).isEqualTo(sorted);
		}
	}

	/** §7.1: filters by state, queue, exact type, type prefix, error type, time range and id. */
	@Test
	void filtersJobs() {
		String mail = this.store.insert(List.of(job("mail.send").queue("mail").build())).get(0);
		String mailDigest = this.store.insert(List.of(job("mail.digest").queue("mail").build())).get(0);
		this.clock.advance(Duration.ofSeconds(10));
		Instant later = this.clock.instant();
		String report = this.store.insert(List.of(job("report_x.build").build())).get(0);
		String dead = failOnce(job("pay.charge").queue("payments"), "card.declined", true);
		String plain = failOnce(job("pay.refund").queue("payments"), "refund.late", false);

		assertThat(ids(query().withQueue("mail"))).containsExactlyInAnyOrder(mail, mailDigest);
		assertThat(ids(new JobQuery(null, null, null, "mail.send", false, null, null, null, null, null, 20, false)))
			.containsExactly(mail);
		assertThat(ids(new JobQuery(null, null, null, "mail.", true, null, null, null, null, null, 20, false)))
			.containsExactlyInAnyOrder(mail, mailDigest);
		// LIKE wildcards in a prefix are taken literally
		assertThat(ids(new JobQuery(null, null, null, "report_", true, null, null, null, null, null, 20, false)))
			.containsExactly(report);
		assertThat(ids(new JobQuery(null, null, null, "report%", true, null, null, null, null, null, 20, false)))
			.isEmpty();
		assertThat(ids(query().withState(JobState.DISCARDED, true))).containsExactly(dead);
		assertThat(ids(query().withState(JobState.DISCARDED, false))).containsExactly(plain);
		assertThat(ids(query().withState(JobState.AVAILABLE, null))).containsExactlyInAnyOrder(mail, mailDigest,
				report);
		assertThat(ids(new JobQuery(null, null, null, null, false, "card.declined", null, null, null, null, 20, false)))
			.containsExactly(dead);
		assertThat(ids(new JobQuery(null, null, null, null, false, null, later, null, null, null, 20, false)))
			.containsExactlyInAnyOrder(report, dead, plain);
		assertThat(ids(new JobQuery(null, null, null, null, false, null, null, later, null, null, 20, false)))
			.containsExactlyInAnyOrder(mail, mailDigest);
		assertThat(ids(new JobQuery(null, null, null, null, false, null, null, null, report, null, 20, false)))
			.containsExactly(report);
	}

	/**
	 * §7.1: a creation-time range is exact to the microsecond: ids (UUIDv7 of the creation
	 * millisecond) bound it by millisecond, created_at within it. A job created at an earlier
	 * time than the last one listed is listed before it, as its id is made from its creation time.
	 */
	@Test
	void creationTimeRangesAreExactWithinAMillisecond() {
		this.clock.set(Instant.parse("2026-03-01T10:00:00.000200Z"));
		String first = this.store.insert(List.of(job("range.job").build())).get(0);
		this.clock.set(Instant.parse("2026-03-01T10:00:00.000700Z"));
		String second = this.store.insert(List.of(job("range.job").build())).get(0);
		this.clock.set(Instant.parse("2026-03-01T10:00:00.001000Z"));
		String third = this.store.insert(List.of(job("range.job").build())).get(0);
		Instant secondCreated = Instant.parse("2026-03-01T10:00:00.000700Z");
		assertThat(ids(new JobQuery(null, null, null, null, false, null, secondCreated, null, null, null, 20, true)))
			.containsExactly(second, third);
		assertThat(ids(new JobQuery(null, null, null, null, false, null, null, secondCreated, null, null, 20, true)))
			.containsExactly(first);
		assertThat(ids(new JobQuery(null, null, null, null, false, null, secondCreated,
				Instant.parse("2026-03-01T10:00:00.001000Z"), null, null, 20, true)))
			.containsExactly(second);
		// a job created earlier than one listed before it: still listed first
		this.clock.set(Instant.parse("2026-03-01T09:59:59Z"));
		String earlier = this.store.insert(List.of(job("range.job").build())).get(0);
		assertThat(ids(new JobQuery(null, null, null, "range.job", false, null, null, null, null, null, 20, false)))
			.containsExactly(third, second, first, earlier);
	}

	/**
	 * The schema script moves a table of the earlier layout to lists by primary key: it drops
	 * the {@code (created_at, id)} indexes and adds the error-type index in id order (not on
	 * MySQL: see its script).
	 */
	@Test
	void schemaScriptDropsTheCreationTimeIndexesOfAnOlderTable() throws SQLException {
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		String table = this.schema.tableName();
		String on = (this.store.platform() == JdbcPlatform.MARIADB) ? " ON " + table : "";
		jdbc.execute("DROP INDEX " + table + "_error_idx" + on);
		jdbc.execute("CREATE INDEX " + table + "_created_idx ON " + table + " (created_at, id)");
		jdbc.execute("CREATE INDEX " + table + "_error_created_idx ON " + table + " (last_error_type, created_at, id)");
		assertThat(indexes(table)).contains(table + "_created_idx", table + "_error_created_idx")
			.doesNotContain(table + "_error_idx");
		JdbcSchema.create(this.schema.dataSource(), this.schema.settings());
		assertThat(indexes(table)).contains(table + "_error_idx")
			.doesNotContain(table + "_created_idx", table + "_error_created_idx");
		String dead = failOnce(job("pay.charge"), "card.declined", true);
		assertThat(ids(new JobQuery(null, null, null, null, false, "card.declined", null, null, null, null, 20, false)))
			.containsExactly(dead);
	}

	private Set<String> indexes(String table) throws SQLException {
		try (Connection con = this.schema.dataSource().getConnection()) {
			Set<String> names = new HashSet<>();
			for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
				try (ResultSet rs = con.getMetaData().getIndexInfo(con.getCatalog(), null, name, false, false)) {
					while (rs.next()) {
						if (rs.getString("INDEX_NAME") != null) {
							names.add(rs.getString("INDEX_NAME").toLowerCase(Locale.ROOT));
						}
					}
				}
			}
			return names;
		}
	}

	/** §7.1: counts are exact up to the cap; beyond it PostgreSQL and MariaDB estimate, H2 counts. */
	@Test
	void countsExactlyUpToTheCapThenEstimates() {
		this.store.insert(IntStream.range(0, 30).mapToObj((i) -> job("count.job").build()).toList());
		assertThat(this.admin.count(query(), 100)).isEqualTo(new JobCount(30, false));
		JobCount capped = this.admin.count(query(), 10);
		if (kind() == dev.ojs.testsupport.TestDatabases.Kind.H2) {
			assertThat(capped).isEqualTo(new JobCount(30, false));
		}
		else {
			assertThat(capped.estimate()).isTrue();
			assertThat(capped.value()).isGreaterThanOrEqualTo(11);
		}
	}

	/** §11: dead letters grouped by error type, job type and queue, largest group first. */
	@Test
	void groupsDeadLetters() {
		for (int i = 0; i < 3; i++) {
			failOnce(job("pay.charge").queue("payments"), "card.declined", true);
		}
		failOnce(job("pay.charge").queue("payments"), "timeout", true);
		failOnce(job("mail.send").queue("mail"), "card.declined", true);
		failOnce(job("mail.send").queue("mail"), "not.dead", false);
		List<DeadLetterGroup> groups = this.admin.deadLetterGroups(JobQuery.deadLetters());
		assertThat(groups).hasSize(3);
		assertThat(groups.get(0)).extracting(DeadLetterGroup::errorType, DeadLetterGroup::type, DeadLetterGroup::queue,
				DeadLetterGroup::count)
			.containsExactly("card.declined", "pay.charge", "payments", 3L);
		assertThat(groups.get(0).oldestAt()).isNotNull();
		assertThat(this.admin.deadLetterGroups(JobQuery.deadLetters().withQueue("mail")))
			.extracting(DeadLetterGroup::errorType)
			.containsExactly("card.declined");
	}

	/** §7.4, §11: retry puts discarded and cancelled jobs back in line, keeping their errors; a live unique key wins. */
	@Test
	void retriesDiscardedAndCancelledJobs() {
		String dead = failOnce(job("pay.charge"), "card.declined", true);
		String plain = failOnce(job("pay.refund"), "late", false);
		String cancelled = this.store.insert(List.of(job("pay.void").build())).get(0);
		this.store.cancel(cancelled);
		String held = failOnce(job("pay.unique").uniqueKey("k1"), "x", true);
		this.store.insert(List.of(job("pay.unique").uniqueKey("k1").build()));
		String completed = this.store.insert(List.of(job("pay.done").build())).get(0);
		complete(completed);

		assertThat(this.admin.retry(List.of(dead, plain, cancelled, held, completed))).isEqualTo(3);
		for (String id : List.of(dead, plain, cancelled)) {
			Job job = this.store.find(id).orElseThrow();
			assertThat(job.state()).isEqualTo(JobState.AVAILABLE);
			assertThat(job.attempt()).isZero();
			assertThat(job.deadLetter()).isFalse();
		}
		assertThat(this.store.find(dead).orElseThrow().errors()).hasSize(1);
		assertThat(this.store.find(held).orElseThrow().deadLetter()).isTrue();
		assertThat(this.store.find(completed).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
	}

	/** §7.5: only terminal jobs are deleted. */
	@Test
	void deletesOnlyTerminalJobs() {
		String dead = failOnce(job("pay.charge"), "card.declined", true);
		String live = this.store.insert(List.of(job("pay.later").build())).get(0);
		assertThat(this.admin.delete(List.of(dead, live))).isEqualTo(1);
		assertThat(this.store.find(dead)).isEmpty();
		assertThat(this.store.find(live)).isPresent();
	}

	/** §6.5: purge deletes terminal jobs of one queue, bounded, and refuses live states. */
	@Test
	void purgesTerminalJobsOfAQueue() {
		List<String> done = this.store
			.insert(IntStream.range(0, 5).mapToObj((i) -> job("q.job" + i).queue("q").build()).toList());
		done.forEach(this::complete);
		String other = this.store.insert(List.of(job("q.job").queue("other").build())).get(0);
		complete(other);
		this.store.insert(List.of(job("q.live").queue("q").build()));
		assertThat(this.admin.countPurgeable("q", Set.of(JobState.COMPLETED), null)).isEqualTo(5);
		assertThat(this.admin.purge("q", Set.of(JobState.COMPLETED), null, 3)).isEqualTo(3);
		assertThat(this.admin.purge("q", Set.of(JobState.COMPLETED), null, 3)).isEqualTo(2);
		assertThat(this.store.find(other)).isPresent();
		assertThat(this.admin.countPurgeable("q", Set.of(JobState.COMPLETED), null)).isZero();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.admin.purge("q", Set.of(JobState.AVAILABLE), null, 10));
	}

	/** §6.1: queues with counts per state, dead letters, oldest ready job and pause state. */
	@Test
	void summarizesQueues() {
		this.store.insert(List.of(job("a.job").queue("alpha").build()));
		this.clock.advance(Duration.ofSeconds(1));
		this.store.insert(List.of(job("a.job").queue("alpha").build()));
		failOnce(job("a.failing").queue("alpha"), "boom", true);
		this.store.pauseQueue("empty");
		List<QueueSummary> queues = this.admin.queues();
		assertThat(queues).extracting(QueueSummary::name).containsExactly("alpha", "empty");
		QueueSummary alpha = queues.get(0);
		assertThat(alpha.count(JobState.AVAILABLE)).isEqualTo(2);
		assertThat(alpha.deadLetters()).isEqualTo(1);
		assertThat(alpha.oldestAvailableAt()).isNotNull().isBefore(this.clock.instant());
		assertThat(queues.get(1).paused()).isTrue();
		assertThat(this.admin.queue("none")).isEmpty();
	}

	/**
	 * §6.2 oldest_available_at: when the oldest claimable job that is due became due, over
	 * every priority of the queue; jobs scheduled ahead and retries not yet due do not count.
	 */
	@Test
	void findsOldestReadyJobPerQueue() {
		String oldest = this.store.insert(List.of(job("a.job").queue("alpha").priority(0).build())).get(0);
		this.clock.advance(Duration.ofSeconds(1));
		this.store.insert(List.of(job("a.job").queue("alpha").priority(9).build()));
		this.store.insert(List.of(job("b.job").queue("beta").runAt(this.clock.instant().plusSeconds(3600)).build()));
		retryOnce(job("c.job").queue("gamma"));
		Map<String, QueueSummary> queues = new HashMap<>();
		this.admin.queues().forEach((queue) -> queues.put(queue.name(), queue));
		assertThat(queues).containsKeys("alpha", "beta", "gamma");
		assertThat(queues.get("alpha").oldestAvailableAt())
			.isEqualTo(this.store.find(oldest).orElseThrow().scheduledAt());
		assertThat(queues.get("beta").oldestAvailableAt()).isNull();
		assertThat(queues.get("gamma").oldestAvailableAt()).isNull();
		this.clock.advance(Duration.ofMinutes(2));
		this.admin.queues().forEach((queue) -> queues.put(queue.name(), queue));
		assertThat(queues.get("gamma").oldestAvailableAt()).isNotNull().isBefore(this.clock.instant());
	}

	/** §9: a node's heartbeat is one upsert; a clean stop deletes its row; pruning forgets long-gone nodes. */
	@Test
	void keepsNodesFromHeartbeats() {
		Instant started = this.store.now();
		this.store.nodeHeartbeat(node(started, 0));
		this.clock.advance(Duration.ofSeconds(10));
		this.store.nodeHeartbeat(node(started, 3));
		List<NodeInfo> nodes = this.admin.nodes();
		assertThat(nodes).hasSize(1);
		assertThat(nodes.get(0).runningJobs()).isEqualTo(3);
		assertThat(nodes.get(0).queues()).containsExactly("default", "mail");
		assertThat(nodes.get(0).lastSeenAt()).isEqualTo(this.store.now());
		this.store.nodeStopped(NODE);
		assertThat(this.admin.nodes()).isEmpty();

		this.store.nodeHeartbeat(node(started, 0));
		this.clock.advance(Duration.ofHours(25));
		this.store.prune(RetentionSettings.defaults(), Duration.ofSeconds(10));
		assertThat(this.admin.nodes()).isEmpty();
	}

	/** §10: completions and failures count up their queue's minute in the outcome's transaction. */
	@Test
	void countsOutcomesPerQueueAndMinute() {
		Instant minute = this.store.now().truncatedTo(ChronoUnit.MINUTES);
		String ok = this.store.insert(List.of(job("s.ok").queue("stats").build())).get(0);
		complete(ok);
		failOnce(job("s.dead").queue("stats"), "boom", true);
		failOnce(job("s.plain").queue("stats"), "boom", false);
		retryOnce(job("s.retry").queue("other"));

		Map<String, StatsBucket> byQueue = this.admin.statsByQueue(minute, minute.plus(Duration.ofMinutes(2)));
		assertThat(byQueue.get("stats")).extracting(StatsBucket::completed, StatsBucket::failed, StatsBucket::retried,
				StatsBucket::deadLettered, StatsBucket::discarded)
			.containsExactly(1L, 2L, 0L, 1L, 1L);
		assertThat(byQueue.get("other").retried()).isEqualTo(1);
		List<StatsBucket> summed = this.admin.stats(minute.minus(Duration.ofHours(1)), minute.plus(Duration.ofMinutes(2)),
				60, null);
		assertThat(summed).hasSize(1);
		assertThat(summed.get(0).processed()).isEqualTo(4);
		assertThat(summed.get(0).queue()).isEqualTo("*");

		// kept 24 h at least, then pruned
		this.clock.advance(Duration.ofHours(23));
		this.store.prune(RetentionSettings.defaults(), Duration.ofSeconds(10));
		assertThat(this.admin.statsByQueue(minute, minute.plus(Duration.ofMinutes(2)))).hasSize(2);
		this.clock.advance(Duration.ofHours(2));
		this.store.prune(RetentionSettings.defaults(), Duration.ofSeconds(10));
		assertThat(this.admin.statsByQueue(minute, minute.plus(Duration.ofMinutes(2)))).isEmpty();
	}

	/**
	 * §10: two nodes' stores count into rows of their own (no node waits on another's
	 * counter row), and the statistics add them up.
	 */
	@Test
	void nodesCountIntoRowsOfTheirOwnAndStatisticsAddThemUp() {
		Instant minute = this.store.now().truncatedTo(ChronoUnit.MINUTES);
		complete(this.store.insert(List.of(job("s.ok").queue("shared").build())).get(0));
		JdbcJobStore otherNode = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
		NewJob newJob = job("s.ok").queue("shared").build();
		String id = otherNode.insert(List.of(newJob)).get(0);
		Job claimed = otherNode.claim("node-2", "shared", Map.of("s.ok", Duration.ofSeconds(30)), 10).get(0);
		assertThat(claimed.id()).isEqualTo(id);
		assertThat(otherNode.complete(List.of(claimed), false)).containsExactly(id);

		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + this.schema.settings().statsTableName()
				+ " WHERE queue = 'shared'", Long.class)).isEqualTo(2);
		Map<String, StatsBucket> byQueue = this.admin.statsByQueue(minute, minute.plus(Duration.ofMinutes(2)));
		assertThat(byQueue.get("shared").completed()).isEqualTo(2);
	}

	/** Ids taken for a bulk action: oldest first, bounded. */
	@Test
	void bulkIdsAreOldestFirstAndBounded() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.addAll(this.store.insert(List.of(job("b.job").build())));
			this.clock.advance(Duration.ofMillis(1));
		}
		assertThat(this.admin.ids(query(), 3)).containsExactlyElementsOf(ids.subList(0, 3));
		assertThat(new HashSet<>(this.admin.ids(query(), 10))).containsExactlyInAnyOrderElementsOf(ids);
	}

	private static JobQuery query() {
		return JobQuery.ALL.withPage(null, 100);
	}

	private List<String> ids(JobQuery query) {
		return this.admin.jobs(query.withPage(null, 100)).items().stream().map(Job::id).toList();
	}

	private NodeInfo node(Instant started, int running) {
		return new NodeInfo(NODE, "app", "host-1", List.of("default", "mail"), 12, running, started, this.store.now(),
				"1.0", NodeInfo.IN_PROCESS);
	}

	private Job claim(NewJob newJob, String id) {
		return this.store.claim(NODE, newJob.queue(), Map.of(newJob.type(), Duration.ofSeconds(30)), 100)
			.stream()
			.filter((job) -> job.id().equals(id))
			.findFirst()
			.orElseThrow();
	}

	private void complete(String id) {
		Job job = this.store.find(id).orElseThrow();
		NewJob newJob = job(job.type()).queue(job.queue()).build();
		assertThat(this.store.complete(List.of(claim(newJob, id)), false)).containsExactly(id);
	}

	private String failOnce(dev.ojs.testsupport.Jobs builder, String errorType, boolean deadLetter) {
		NewJob newJob = builder.build();
		String id = this.store.insert(List.of(newJob)).get(0);
		Job claimed = claim(newJob, id);
		Instant now = this.store.now();
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.DISCARDED, null,
				List.of(error(errorType, now)), deadLetter, now)))).containsExactly(id);
		return id;
	}

	private void retryOnce(dev.ojs.testsupport.Jobs builder) {
		NewJob newJob = builder.build();
		String id = this.store.insert(List.of(newJob)).get(0);
		Job claimed = claim(newJob, id);
		Instant now = this.store.now();
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, now.plusSeconds(60),
				List.of(error("flaky", now)), false, now)))).containsExactly(id);
	}

	private static ErrorEntry error(String type, Instant at) {
		return new ErrorEntry(1, type, "failed: " + type, ErrorCode.RETRY, at, Map.of());
	}

}
