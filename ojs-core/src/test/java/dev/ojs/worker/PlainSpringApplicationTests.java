package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.Jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine in a plain Spring application, without Spring Boot: the application's own
 * configuration declares the job store and a worker, a job enqueued in the application's
 * transaction is claimed and run, and the worker stops with the context.
 */
class PlainSpringApplicationTests {

	static final String TYPE = "plain.greet";

	static final BlockingQueue<String> greeted = new LinkedBlockingQueue<>();

	@Configuration(proxyBeanMethods = false)
	static class PlainApplication {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new org.h2.Driver(), "jdbc:h2:mem:ojs_plain;DB_CLOSE_DELAY=-1", "sa", "");
		}

		@Bean
		JdbcJobStore jobStore(DataSource dataSource) {
			JdbcStoreSettings settings = new JdbcStoreSettings("plain_");
			JdbcSchema.create(dataSource, settings);
			return new JdbcJobStore(dataSource, settings);
		}

		@Bean(initMethod = "start", destroyMethod = "stop")
		Worker worker(JdbcJobStore jobStore) {
			HandlerRegistration greet = new HandlerRegistration(TYPE, "default", 0, null,
					(attempt) -> greeted.add(attempt.job().argsJson()), null, RetryPolicy.DEFAULT);
			return new Worker(jobStore, List.of(greet), new WorkerSettings("plain-node", Map.of("default", 2),
					Duration.ofMillis(50), Duration.ofMinutes(5), Duration.ofSeconds(5), RetentionSettings.defaults()),
					null, null);
		}

	}

	@Test
	void aWorkerOfTheEngineRunsJobsInAnApplicationWithoutBoot() throws InterruptedException {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				PlainApplication.class)) {
			JdbcJobStore store = context.getBean(JdbcJobStore.class);
			TransactionTemplate transaction = new TransactionTemplate(
					new DataSourceTransactionManager(context.getBean(DataSource.class)));
			String id = transaction.execute((status) -> store.insert(List.of(Jobs.job(TYPE).args("[\"ada\"]").build())).get(0));
			assertThat(greeted.poll(30, TimeUnit.SECONDS)).isEqualTo("[\"ada\"]");
			Job done = await().atMost(Duration.ofSeconds(30))
				.until(() -> store.find(id).orElseThrow(), (job) -> job.state() == JobState.COMPLETED);
			assertThat(done.attempt()).isEqualTo(1);
			Worker worker = context.getBean(Worker.class);
			assertThat(worker.isRunning()).isTrue();
			context.close();
			assertThat(worker.isRunning()).isFalse();
		}
	}

}
