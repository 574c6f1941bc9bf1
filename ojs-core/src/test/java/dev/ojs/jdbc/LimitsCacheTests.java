package dev.ojs.jdbc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;

/** Which limits claims see: read at most once a second, and again after a change on this node. */
class LimitsCacheTests {

	private final AtomicInteger reads = new AtomicInteger();

	private final AtomicReference<String> stored = new AtomicReference<>("none");

	@Test
	void readsOnceUntilALimitChanges() {
		LimitsCache<String> cache = new LimitsCache<>(this::read, "initial", "ojs_queues");
		assertThat(cache.get()).isEqualTo("none");
		assertThat(cache.get()).isEqualTo("none");
		assertThat(this.reads).hasValue(1);
		this.stored.set("reports=3");
		cache.changed();
		assertThat(cache.get()).isEqualTo("reports=3");
		assertThat(this.reads).hasValue(2);
	}

	/**
	 * A limit set on this node while a claim's read runs (the read saw the table before the
	 * change committed) is read by the next claim, not a second later: a queue newly limited is
	 * held to it at once on the node that set it.
	 */
	@Test
	void aChangeDuringARefreshIsReadByTheNextClaim() {
		AtomicReference<LimitsCache<String>> cache = new AtomicReference<>();
		cache.set(new LimitsCache<>(() -> {
			String before = read();
			if (this.reads.get() == 1) {
				// the change commits and tells the cache while this read is under way
				this.stored.set("reports=3");
				cache.get().changed();
			}
			return before;
		}, "initial", "ojs_queues"));
		assertThat(cache.get().get()).as("read before the change").isEqualTo("none");
		assertThat(cache.get().get()).isEqualTo("reports=3");
	}

	/**
	 * A claim that comes while another thread reads after a change waits for that read: it
	 * does not take what was read before the change (an HTTP fetch of a queue limited a moment
	 * ago, while a poller's read ran, was once claimed as if the queue had no limit).
	 */
	@Test
	void aClaimDuringAReadAfterAChangeWaitsForThatRead() throws Exception {
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		LimitsCache<String> cache = new LimitsCache<>(() -> {
			if (read().equals("reports=3")) {
				reading.countDown();
				AbstractJdbcWorkflowStoreTests.await(release);
			}
			return this.stored.get();
		}, "initial", "ojs_queues");
		assertThat(cache.get()).isEqualTo("none");
		this.stored.set("reports=3");
		cache.changed();
		CompletableFuture<String> poller = CompletableFuture.supplyAsync(cache::get);
		assertThat(reading.await(10, TimeUnit.SECONDS)).as("the poller's read began").isTrue();
		CompletableFuture<String> fetch = CompletableFuture.supplyAsync(cache::get);
		release.countDown();
		assertThat(fetch.get(10, TimeUnit.SECONDS)).isEqualTo("reports=3");
		assertThat(poller.get(10, TimeUnit.SECONDS)).isEqualTo("reports=3");
		assertThat(this.reads).as("the fetch took the poller's read").hasValue(2);
	}

	@Test
	void aFailedReadKeepsWhatWasReadLast() {
		LimitsCache<String> cache = new LimitsCache<>(() -> {
			if (this.reads.incrementAndGet() > 1) {
				throw new DataAccessResourceFailureException("down");
			}
			return this.stored.get();
		}, "initial", "ojs_queues");
		assertThat(cache.get()).isEqualTo("none");
		cache.changed();
		assertThat(cache.get()).isEqualTo("none");
		assertThat(cache.last()).isEqualTo("none");
	}

	private String read() {
		this.reads.incrementAndGet();
		return this.stored.get();
	}

}
