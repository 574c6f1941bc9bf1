package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;


import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcRecurringJobStore;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.recurring.OverlapPolicy;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.spring.autoconfigure.OjsRecurringJobsLifecycle;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.ForwardingRecurringJobStore;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Recurring jobs on four nodes, each a whole application context on one database, through
 * real occurrences of two recurring jobs firing every second (ojs-cron.md §7, CRON-21/22/23/25). On the
 * way the lease holder dies inside an occurrence's transaction (after the compare-and-set, its lease
 * left to expire), and later the next holder shuts down. Every occurrence has exactly one job, run
 * once; the dead node's occurrence is caught up by its successor; no gap between occurrences is longer
 * than a failover allows while a node lives. Occurrences need not be contiguous: an evaluation
 * more than an occurrence late (a failover, a loaded machine) fires the occurrences it missed once
 * (CRON-25). Subclasses choose the database.
 */
abstract class AbstractFourContextRecurringJobTests extends DatabaseTests {

	private static final int NODES = 4;

	private static final List<String> SCHEDULES = List.of("four.cron", "four.every");

	private static final Duration INTERVAL = Duration.ofSeconds(1);

	private static final Duration LEASE_TTL = Duration.ofMillis(2500);

	private static final Duration TICK = Duration.ofSeconds(1);

	/**
	 * The longest gap between consecutive occurrences' jobs while a node lives: a dead holder's lease
	 * runs out, a successor takes it at its next evaluation (an interval), fires the first
	 * missed occurrence once (CRON-25) and the next occurrence's job an occurrence and an interval later; plus an
	 * interval for a loaded machine.
	 */
	private static final Duration MAX_GAP = LEASE_TTL.plus(INTERVAL.multipliedBy(3)).plus(TICK);

	private static final Duration BOUND = Duration.ofSeconds(20);

	private final Map<String, ConfigurableApplicationContext> nodes = new LinkedHashMap<>();

	@AfterAll
	void closeNodes() {
		this.nodes.values().forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void everyOccurrenceHasExactlyOneJobAcrossFourNodesThroughAKillAndAShutdown() {
		OccurrenceHandlers.runs.clear();
		for (int i = 1; i <= NODES; i++) {
			this.nodes.put("node-" + i, start("node-" + i));
		}
		awaitOccurrences(2);

		// the holder dies inside an occurrence's transaction (whichever node holds it when the next occurrence comes)
		AtomicBoolean kill = new AtomicBoolean(true);
		this.nodes.values().forEach((node) -> node.getBean(KillableRecurringJobStore.class).kill.set(kill));
		await().atMost(BOUND).until(() -> !kill.get());
		String killed = this.nodes.entrySet()
			.stream()
			.filter((node) -> node.getValue().getBean(KillableRecurringJobStore.class).dead())
			.map(Map.Entry::getKey)
			.findFirst()
			.orElseThrow();
		ConfigurableApplicationContext dead = this.nodes.remove(killed);
		KillableRecurringJobStore dying = dead.getBean(KillableRecurringJobStore.class);
		dead.close();
		assertThat(dying.holderAtDeath).as("the dead node held the lease").hasValue(killed);
		assertThat(dying.rolledBack).as("the dead node's occurrence rolled back").isTrue();
		String killedKey = dying.killedKey.get();
		assertThat(killedKey).isNotNull();
		this.nodes.values()
			.forEach((node) -> node.getBean(KillableRecurringJobStore.class).kill.set(new AtomicBoolean()));
		// its lease expires, a successor fires the dead node's occurrence once (CRON-22, CRON-25)
		await().atMost(BOUND).until(() -> jobs().containsKey(killedKey));
		awaitOccurrences(2);

		// the next holder shuts down and gives its lease up
		this.nodes.remove(holder()).close();
		awaitOccurrences(3);

		// stop evaluating, then let the workers finish every job
		this.nodes.values().forEach((node) -> node.getBean(OjsRecurringJobsLifecycle.class).stop());
		await().atMost(BOUND)
			.until(() -> count("SELECT count(*) FROM " + this.schema.tableName() + " WHERE state <> ?",
					JobState.COMPLETED.value()) == 0);

		Map<String, Integer> jobs = jobs();
		assertThat(jobs).as("exactly one job per occurrence").allSatisfy((key, count) -> assertThat(count).isOne());
		assertThat(jobs).containsKey(killedKey);
		Map<String, String> keysById = keysById();
		assertThat(OccurrenceHandlers.runs).as("every job ran once, on some node")
			.containsOnlyKeys(keysById.keySet())
			.allSatisfy((id, runs) -> assertThat(runs.get()).isOne());
		for (String name : SCHEDULES) {
			List<Instant> occurrences = occurrences(name, jobs.keySet());
			assertThat(occurrences).as(name).hasSizeGreaterThanOrEqualTo(8);
			StoredRecurringJob stored = this.nodes.values()
				.iterator()
				.next()
				.getBean(OjsRecurringJobs.class)
				.find(name)
				.orElseThrow();
			assertThat(stored.runCount()).as(name + " run count").isEqualTo(occurrences.size());
			for (int i = 1; i < occurrences.size(); i++) {
				Duration gap = Duration.between(occurrences.get(i - 1), occurrences.get(i));
				assertThat(gap).as(name + " occurrences " + occurrences.get(i - 1) + " -> " + occurrences.get(i)
						+ " of " + occurrences)
					.isPositive()
					.isLessThanOrEqualTo(MAX_GAP);
				assertThat(gap.toMillis() % TICK.toMillis()).as(name + " occurrence alignment").isZero();
			}
		}
	}

	private ConfigurableApplicationContext start(String nodeId) {
		return new SpringApplicationBuilder(FourNodeApplication.class).web(WebApplicationType.NONE)
			.properties("test.database=" + kind().name(), "ojs.jdbc.table-prefix=" + this.schema.tablePrefix(),
					"ojs.jdbc.initialize-schema=always", "ojs.worker.node-id=" + nodeId,
					"ojs.worker.poll-interval=100ms", "ojs.cron.interval=" + INTERVAL.toMillis() + "ms",
					"ojs.cron.lease-ttl=" + LEASE_TTL.toMillis() + "ms", "spring.main.banner-mode=off")
			.run();
	}

	/** The live node holding the evaluator lease, once one does. */
	private String holder() {
		AtomicReference<String> holder = new AtomicReference<>();
		await().atMost(BOUND).until(() -> {
			Optional<String> current = this.nodes.values()
				.iterator()
				.next()
				.getBean(RecurringJobStore.class)
				.leaseHolder()
				.filter(this.nodes::containsKey);
			current.ifPresent(holder::set);
			return current.isPresent();
		});
		return holder.get();
	}

	/** Waits until every recurring job has {@code more} occurrences' jobs more than now. */
	private void awaitOccurrences(int more) {
		Map<String, Integer> before = occurrencesPerRecurringJob();
		await().atMost(BOUND).until(() -> {
			Map<String, Integer> now = occurrencesPerRecurringJob();
			return SCHEDULES.stream()
				.allMatch((name) -> now.getOrDefault(name, 0) >= before.getOrDefault(name, 0) + more);
		});
	}

	private Map<String, Integer> occurrencesPerRecurringJob() {
		Map<String, Integer> occurrences = new HashMap<>();
		jobs().keySet().forEach((key) -> occurrences.merge(key.split(":")[1], 1, Integer::sum));
		return occurrences;
	}

	/** Jobs per unique key. */
	private Map<String, Integer> jobs() {
		Map<String, Integer> jobs = new TreeMap<>();
		jdbc().query("SELECT unique_key, count(*) FROM " + this.schema.tableName() + " GROUP BY unique_key",
				(rs) -> {
					jobs.put(rs.getString(1), rs.getInt(2));
				});
		return jobs;
	}

	private Map<String, String> keysById() {
		Map<String, String> keys = new HashMap<>();
		jdbc().query("SELECT id, unique_key FROM " + this.schema.tableName(), (rs) -> {
			keys.put(rs.getString(1), rs.getString(2));
		});
		return keys;
	}

	private long count(String sql, Object... args) {
		Long count = jdbc().queryForObject(sql, Long.class, args);
		return (count != null) ? count : 0;
	}

	private JdbcTemplate jdbc() {
		return new JdbcTemplate(this.schema.dataSource());
	}

	/**
	 * The occurrences of recurring job {@code name}, in order, from the jobs' unique keys
	 * {@code cron:{name}:{local tick}}.
	 */
	private static List<Instant> occurrences(String name, Iterable<String> keys) {
		String prefix = "cron:" + name + ":";
		List<Instant> occurrences = new ArrayList<>();
		for (String key : keys) {
			if (key.startsWith(prefix)) {
				String occurrence = key.substring(prefix.length());
				// @every keys are instants, cron keys local times in UTC
				occurrences.add(occurrence.endsWith("Z") ? Instant.parse(occurrence)
						: LocalDateTime.parse(occurrence).toInstant(ZoneOffset.UTC));
			}
		}
		occurrences.sort(null);
		return occurrences;
	}

	/** One node: the same application on every node. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TestDatabaseConfiguration.SharedDataSource.class)
	static class FourNodeApplication {


		@Bean
		KillableRecurringJobStore killableRecurringJobStore(JdbcJobStore jobStore) {
			return new KillableRecurringJobStore(new JdbcRecurringJobStore(jobStore));
		}

		@Bean
		OccurrenceHandlers occurrenceHandlers() {
			return new OccurrenceHandlers();
		}

	}

	static class OccurrenceHandlers {

		/** Runs per job id, on every node. */
		static final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		@OjsRecurring(name = "four.cron", cron = "* * * * * *", overlap = OverlapPolicy.ALLOW)
		@OjsJob(type = "four.cron")
		void cron(JobContext context) {
			runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
		}

		@OjsRecurring(name = "four.every", cron = "@every 1s", overlap = OverlapPolicy.ALLOW)
		@OjsJob(type = "four.every")
		void every(JobContext context) {
			runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
		}

	}

	/**
	 * The node's cron store. The first node to take an occurrence while the shared kill switch is on
	 * dies inside that occurrence's transaction (a queue name the job table rejects fails it after
	 * the compare-and-set) and answers nothing after, as a node whose process is gone: its
	 * lease is neither renewed nor released.
	 */
	static final class KillableRecurringJobStore extends ForwardingRecurringJobStore {

		/** Shared by the nodes: the first to take an occurrence while it is set clears it and dies. */
		final AtomicReference<AtomicBoolean> kill = new AtomicReference<>(new AtomicBoolean());

		final AtomicReference<@Nullable String> killedKey = new AtomicReference<>();

		final AtomicReference<@Nullable String> holderAtDeath = new AtomicReference<>();

		final AtomicBoolean rolledBack = new AtomicBoolean();

		private final AtomicBoolean dead = new AtomicBoolean();

		KillableRecurringJobStore(RecurringJobStore store) {
			super(store);
		}

		boolean dead() {
			return this.dead.get();
		}

		@Override
		protected void check() {
			if (this.dead.get()) {
				throw new IllegalStateException("node is dead");
			}
		}

		@Override
		public void releaseLease(String nodeId) {
			if (!this.dead.get()) {
				this.store.releaseLease(nodeId);
			}
		}

		@Override
		public Optional<Advanced> advance(Advance advance) {
			check();
			NewJob job = advance.job();
			if (job == null || !this.kill.get().compareAndSet(true, false)) {
				return this.store.advance(advance);
			}
			this.dead.set(true);
			this.killedKey.set(job.uniqueKey());
			this.holderAtDeath.set(this.store.leaseHolder().orElse(null));
			NewJob rejected = new NewJob(job.type(), "q".repeat(300), job.priority(), job.argsJson(), job.metaJson(),
					job.retryPolicy(), job.runAt(), job.uniqueKey(), job.maxAttempts());
			try {
				this.store.advance(new Advance(advance.name(), advance.expectedNextRunAt(), advance.expectedQueuedRuns(),
						advance.nextRunAt(), advance.queuedRuns(), advance.occurrenceAt(), advance.outcome(), rejected,
						advance.cancelJobId()));
			}
			catch (RuntimeException ex) {
				// the compare-and-set went with the failed insert
				Instant nextRunAt = this.store.find(advance.name()).orElseThrow().nextRunAt();
				this.rolledBack.set(Objects.equals(advance.expectedNextRunAt(), nextRunAt));
			}
			throw new IllegalStateException("node died inside the occurrence");
		}

	}

}
