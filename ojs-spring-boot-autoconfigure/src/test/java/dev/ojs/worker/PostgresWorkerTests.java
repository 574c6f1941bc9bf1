package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractWorkerTests} on PostgreSQL, plus its LISTEN/NOTIFY wake-up.
 */
class PostgresWorkerTests extends AbstractWorkerTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	@Test
	void insertNotificationsArriveOnCommitOnly() throws Exception {
		BlockingQueue<String> notified = new LinkedBlockingQueue<>();
		try (AutoCloseable listening = this.store.listenForInserts((queue) -> notified.add(String.valueOf(queue)))) {
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
	void notificationWakesAnIdleWorkerAtOnce() throws Exception {
		List<Job> started = new CopyOnWriteArrayList<>();
		// a 30 s poll interval: without a notification the job would wait for the poller's backoff
		start(new WorkerSettings("node-1", Map.of("default", 4), Duration.ofSeconds(30), Duration.ofSeconds(30),
				Duration.ofSeconds(2), retention()), handler(TYPE, (execution) -> started.add(execution.job())));
		// let the poller back off: it polls after 5, 10, 20, ... ms, so the next poll after
		// 1.5 s of idling is more than a second away
		Thread.sleep(1500);
		Instant enqueued = this.store.now();
		String id = enqueue(job(TYPE));
		awaitState(id, JobState.COMPLETED);
		assertThat(Duration.between(enqueued, started.get(0).startedAt())).isLessThan(Duration.ofMillis(300));
	}

}
