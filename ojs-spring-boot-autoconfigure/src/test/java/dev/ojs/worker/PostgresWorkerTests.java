package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AbstractWorkerTests} on PostgreSQL, plus its LISTEN/NOTIFY wake-up.
 */
class PostgresWorkerTests extends AbstractWorkerTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	@Test
	void warnsAtStartWhenAutovacuumDoesNotProcessTheJobTable(CapturedOutput output) {
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.execute("ALTER TABLE " + this.schema.tableName() + " SET (autovacuum_enabled = false)");
		try {
			start(new HandlerRegistration(TYPE, "default", 0, null, (execution) -> {
			}, null, RetryPolicy.DEFAULT));
			assertThat(output).contains("Autovacuum does not process the OJS job table " + this.schema.tableName())
				.contains("the table is set autovacuum_enabled = false");
		}
		finally {
			jdbc.execute("ALTER TABLE " + this.schema.tableName() + " RESET (autovacuum_enabled)");
		}
	}

	@Test
	void insertNotificationsArriveOnCommitOnly() throws Exception {
		BlockingQueue<String> notified = new LinkedBlockingQueue<>();
		try (AutoCloseable listening = this.store.listenForInserts((queue) -> notified.add(String.valueOf(queue))).orElseThrow()) {
			assertThat(notified.poll(10, TimeUnit.SECONDS)).as("(re)connected").isEqualTo("null");
			TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(this.schema.dataSource()));
			tx.executeWithoutResult((status) -> {
				enqueue(job(TYPE).queue("rolled-back"));
				status.setRollbackOnly();
			});
			tx.executeWithoutResult((status) -> this.store.insert(List.of(job(TYPE).queue("mail").build(),
					job(TYPE).queue("mail").build(), job(TYPE).queue("sms").build())));
			assertThat(List.of(notified.poll(10, TimeUnit.SECONDS), notified.poll(10, TimeUnit.SECONDS)))
				.containsExactlyInAnyOrder("mail", "sms");
			assertThat(notified.poll(200, TimeUnit.MILLISECONDS)).as("one per queue, none for the rollback").isNull();
		}
	}

	@Test
	void anUncommittedInsertDoesNotSuppressTheNotificationOfACommittedOne() throws Exception {
		BlockingQueue<String> notified = new LinkedBlockingQueue<>();
		try (AutoCloseable listening = this.store.listenForInserts((queue) -> notified.add(String.valueOf(queue))).orElseThrow()) {
			assertThat(notified.poll(10, TimeUnit.SECONDS)).as("(re)connected").isEqualTo("null");
			DataSourceTransactionManager transactions = new DataSourceTransactionManager(this.schema.dataSource());
			TransactionTemplate tx = new TransactionTemplate(transactions);
			TransactionTemplate newTx = new TransactionTemplate(transactions);
			newTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
			for (int round = 0; round < 3; round++) {
				List<String> received = new ArrayList<>();
				tx.executeWithoutResult((status) -> {
					enqueue(job(TYPE).queue("mail"));
					// committed right after the uncommitted one: its notification must not be suppressed
					newTx.executeWithoutResult((inner) -> enqueue(job(TYPE).queue("mail")));
					try {
						received.add(notified.poll(10, TimeUnit.SECONDS));
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					status.setRollbackOnly();
				});
				assertThat(received).containsExactly("mail");
				assertThat(notified.poll(100, TimeUnit.MILLISECONDS)).as("none for the rollback").isNull();
			}
		}
	}

	@Test
	void notificationWakesAnIdleWorkerAtOnce() {
		List<Job> started = new CopyOnWriteArrayList<>();
		// a 30 s poll interval: without a notification the job would wait for the poller's backoff
		ClaimObservingStore observed = new ClaimObservingStore(this.schema.dataSource(), this.schema.settings());
		startWorker(new Worker(observed, List.of(handler(TYPE, (execution) -> started.add(execution.job()))),
				new WorkerSettings("node-1", Map.of("default", 4), Duration.ofSeconds(30), Duration.ofSeconds(30),
						Duration.ofSeconds(2), retention()),
				this.listener, RetryDelayOverride.NONE));
		// the poller backs off (it polls after 5, 10, 20, ... ms): once a claim came more than
		// 1.2 s after the one before, the idle wait after it lasts at least 2.4 s, and only a
		// notification can start the job sooner
		await().atMost(TIMEOUT).until(() -> observed.lastGap().toMillis() > 1200);
		Instant enqueued = this.store.now();
		String id = enqueue(job(TYPE));
		awaitState(id, JobState.COMPLETED);
		assertThat(Duration.between(enqueued, started.get(0).startedAt())).isLessThan(Duration.ofMillis(300));
	}

}
