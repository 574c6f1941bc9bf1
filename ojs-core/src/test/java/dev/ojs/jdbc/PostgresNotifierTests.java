package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;

/** The NOTIFY that follows a commit: one send at a time, what is owed meanwhile in the next one, nothing lost. */
class PostgresNotifierTests {

	@Test
	void queuesOwedWhileASendRunsGoTogetherInTheNextOne() throws Exception {
		BlockingQueue<List<String>> sent = new LinkedBlockingQueue<>();
		CountDownLatch sending = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		PostgresNotifier notifier = new PostgresNotifier((queues) -> {
			sent.add(List.copyOf(queues));
			if (queues.contains("mail")) {
				sending.countDown();
				AbstractJdbcWorkflowStoreTests.await(release);
			}
		});
		notifier.owe(List.of("mail"));
		assertThat(sending.await(10, TimeUnit.SECONDS)).isTrue();
		notifier.owe(List.of("sms"));
		notifier.owe(List.of("push", "sms"));
		release.countDown();
		assertThat(sent.poll(10, TimeUnit.SECONDS)).containsExactly("mail");
		assertThat(sent.poll(10, TimeUnit.SECONDS)).containsExactlyInAnyOrder("sms", "push");
		assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
	}

	@Test
	void everyQueueOwedIsSentWhileManyThreadsOweAtOnce() throws Exception {
		Set<String> sent = ConcurrentHashMap.newKeySet();
		PostgresNotifier notifier = new PostgresNotifier(sent::addAll);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		List<String> owed = new ArrayList<>();
		for (int thread = 0; thread < 8; thread++) {
			int t = thread;
			for (int i = 0; i < 2_000; i++) {
				owed.add(t + "-" + i);
			}
			threads.execute(() -> {
				for (int i = 0; i < 2_000; i++) {
					notifier.owe(List.of(t + "-" + i));
				}
			});
		}
		threads.shutdown();
		assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (sent.size() < owed.size() && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		assertThat(sent).containsExactlyInAnyOrderElementsOf(owed);
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void aFailedSendDoesNotStopTheNext(boolean databaseDown) throws Exception {
		BlockingQueue<Collection<String>> sent = new LinkedBlockingQueue<>();
		PostgresNotifier notifier = new PostgresNotifier((queues) -> {
			if (queues.contains("down")) {
				throw databaseDown ? new DataAccessResourceFailureException("down") : new IllegalStateException("bug");
			}
			sent.add(List.copyOf(queues));
		});
		notifier.owe(List.of("down"));
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		List<String> later = List.of("mail");
		while (sent.isEmpty() && System.nanoTime() < deadline) {
			notifier.owe(later);
			Thread.sleep(10);
		}
		assertThat(sent.poll()).containsExactly("mail");
	}

}
