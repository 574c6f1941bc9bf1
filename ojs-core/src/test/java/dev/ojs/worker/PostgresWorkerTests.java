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
import dev.ojs.jdbc.JdbcJobStore;
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
			start(new HandlerRegistration(TYPE, "default", 0, null, (attempt) -> {
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
		// the listening store hears of another process's inserts through the database only
		JdbcJobStore listening = new JdbcJobStore(this.schema.dataSource(), this.schema.settings());
		BlockingQueue<String> notified = new LinkedBlockingQueue<>();
		try (AutoCloseable handle = listening.listenForInserts((queue) -> notified.add(String.valueOf(queue))).orElseThrow()) {
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
		JdbcJobStore listening = new JdbcJobStore(this.schema.dataSource(), this.schema.settings());
		BlockingQueue<String> notified = new LinkedBlockingQueue<>();
		try (AutoCloseable handle = listening.listenForInserts((queue) -> notified.add(String.valueOf(queue))).orElseThrow()) {
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
		List<Job> started = startIdleWorker();
		// inserted by another store, as by another process: only the notification tells the worker
		Instant enqueued = this.store.now();
		String id = enqueue(job(TYPE));
		awaitState(id, JobState.COMPLETED);
		assertThat(Duration.between(enqueued, started.get(0).startedAt())).isLessThan(Duration.ofMillis(300));
	}

}
