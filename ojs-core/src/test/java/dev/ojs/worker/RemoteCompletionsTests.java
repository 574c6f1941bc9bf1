package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.worker.RemoteCompletions.Answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link RemoteCompletions}: the acks of external workers (ojs-http-binding.md §10.2) that
 * arrive while a group is written are written together next, in one call of the store (one
 * transaction); each caller gets its own outcome: a cancelled job's write does not take (its
 * ack is refused, ojs-core.md §7.6), and a row that fails the group is written alone so only
 * its caller sees the error.
 */
class RemoteCompletionsTests {

	private static final String OWNER = RemoteAttempts.owner("w1");

	private static final int CALLERS = 8;

	private final FakeWorkerStore fake = new FakeWorkerStore();

	private final ExecutorService threads = Executors.newFixedThreadPool(CALLERS);

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
	}

	@Test
	void completionsArrivingDuringAWriteAreWrittenTogetherNextEachWithItsOwnOutcome() throws Exception {
		CountDownLatch firstWriting = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		RemoteCompletions completions = heldUp(firstWriting, release, null);
		List<Job> jobs = claimed(CALLERS);
		this.fake.cancel(jobs.get(3).id());
		List<Future<Boolean>> answers = new ArrayList<>();
		answers.add(this.threads.submit(() -> completions.complete(jobs.get(0).id(), null, null).written()));
		assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
		for (Job job : jobs.subList(1, CALLERS)) {
			answers.add(this.threads.submit(() -> completions.complete(job.id(), null, null).written()));
		}
		// the others queue behind the first write
		Thread.sleep(200);
		release.countDown();

		for (int i = 0; i < CALLERS; i++) {
			assertThat(answers.get(i).get(10, TimeUnit.SECONDS)).as("job %d", i).isEqualTo(i != 3);
		}
		assertThat(this.fake.writes).hasSize(2);
		assertThat(this.fake.writes.get(0)).containsExactly(jobs.get(0).id());
		// the cancelled job is read as such: its ack is not written
		assertThat(this.fake.writes.get(1)).containsExactlyInAnyOrderElementsOf(
				jobs.subList(1, CALLERS).stream().map(Job::id).filter((id) -> !id.equals(jobs.get(3).id())).toList());
		assertThat(this.fake.get(jobs.get(5).id()).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.fake.get(jobs.get(3).id()).state()).isEqualTo(JobState.CANCELLED);
	}

	/**
	 * A group reads its jobs in one query, however many acks it holds, and writes those their
	 * workers hold: an ack of a job another worker holds, or of none, is answered unwritten
	 * without failing the others, and an id in upper case names the same job.
	 */
	@Test
	void aGroupReadsItsJobsInOneQueryAndWritesThoseTheirWorkersHold() throws Exception {
		List<Job> jobs = claimed(4);
		CountDownLatch firstWriting = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<List<String>> reads = new CopyOnWriteArrayList<>();
		RemoteCompletions completions = new RemoteCompletions(new ForwardingWorkerStore(this.fake) {

			@Override
			public List<Job> findAll(List<String> ids) {
				reads.add(ids);
				return super.findAll(ids);
			}

			@Override
			public Set<String> complete(List<Job> group, boolean delete) {
				firstWriting.countDown();
				await(release);
				return super.complete(group, delete);
			}

		}, false);
		Future<Answer> first = this.threads.submit(() -> completions.complete(jobs.get(0).id(), "w1", null));
		assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
		Future<Answer> upperCase = this.threads
			.submit(() -> completions.complete(jobs.get(1).id().toUpperCase(Locale.ROOT), null, null));
		Future<Answer> otherWorker = this.threads.submit(() -> completions.complete(jobs.get(2).id(), "w2", null));
		String unknownId = JobIds.newId();
		Future<Answer> unknown = this.threads.submit(() -> completions.complete(unknownId, null, null));
		Future<Answer> held = this.threads.submit(() -> completions.complete(jobs.get(3).id(), "w1", null));
		// the others queue behind the first write
		Thread.sleep(200);
		release.countDown();

		assertThat(first.get(10, TimeUnit.SECONDS).written()).isTrue();
		assertThat(upperCase.get(10, TimeUnit.SECONDS).written()).isTrue();
		assertThat(otherWorker.get(10, TimeUnit.SECONDS)).satisfies((answer) -> {
			assertThat(answer.written()).isFalse();
			assertThat(answer.job().state()).isEqualTo(JobState.ACTIVE);
		});
		assertThat(unknown.get(10, TimeUnit.SECONDS)).isEqualTo(new Answer(null, false));
		assertThat(held.get(10, TimeUnit.SECONDS).written()).isTrue();
		assertThat(reads).hasSize(2);
		assertThat(reads.get(1)).hasSize(4);
		assertThat(this.fake.writes.get(1)).containsExactlyInAnyOrder(jobs.get(1).id(), jobs.get(3).id());
		assertThat(this.fake.get(jobs.get(2).id()).state()).isEqualTo(JobState.ACTIVE);
	}

	/**
	 * A row that fails its group's write is written alone and only its caller sees the error,
	 * whether other held jobs share the group or not; an ack of a job another worker holds is
	 * refused all the same.
	 */
	@ParameterizedTest(name = "{0} held in the group")
	@ValueSource(ints = { 1, 2 })
	void aRowThatFailsItsGroupIsWrittenAloneAndOnlyItsCallerSeesTheError(int held) throws Exception {
		List<Job> jobs = claimed(4);
		CountDownLatch firstWriting = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		RemoteCompletions completions = heldUp(firstWriting, release, jobs.get(2));
		Future<Answer> first = this.threads.submit(() -> completions.complete(jobs.get(0).id(), null, null));
		assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
		List<Future<Answer>> others = new ArrayList<>();
		for (Job job : jobs.subList(3 - held, 3)) {
			others.add(this.threads.submit(() -> completions.complete(job.id(), null, null)));
		}
		Future<Answer> notHeld = this.threads.submit(() -> completions.complete(jobs.get(3).id(), "w2", null));
		Thread.sleep(200);
		release.countDown();

		assertThat(first.get(10, TimeUnit.SECONDS).written()).isTrue();
		Future<Answer> bad = others.remove(others.size() - 1);
		assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("bad row");
		for (Future<Answer> other : others) {
			assertThat(other.get(10, TimeUnit.SECONDS).written()).isTrue();
			assertThat(this.fake.get(jobs.get(1).id()).state()).isEqualTo(JobState.COMPLETED);
		}
		assertThat(notHeld.get(10, TimeUnit.SECONDS).written()).isFalse();
		assertThat(this.fake.get(jobs.get(2).id()).state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.fake.get(jobs.get(3).id()).state()).isEqualTo(JobState.ACTIVE);
	}

	@Test
	void aLoneCompletionIsWrittenAtOnceWithItsResult() {
		Job job = claimed(1).get(0);
		List<Map<String, String>> results = new ArrayList<>();
		RemoteCompletions completions = new RemoteCompletions(new ForwardingWorkerStore(this.fake) {

			@Override
			public Set<String> complete(List<Job> jobs, Map<String, String> byId, boolean delete) {
				results.add(byId);
				return super.complete(jobs, delete);
			}

		}, false);

		assertThat(completions.complete(job.id(), null, "{\"ok\":true}").written()).isTrue();
		assertThat(results).containsExactly(Map.of(job.id(), "{\"ok\":true}"));
		assertThat(completions.complete(job.id(), null, null)).as("a second ack of the same attempt")
			.satisfies((answer) -> {
				assertThat(answer.written()).isFalse();
				assertThat(answer.job().state()).isEqualTo(JobState.COMPLETED);
			});
	}

	/**
	 * Completions whose writes start by counting down {@code writing} and wait for
	 * {@code release}; a group holding {@code bad} fails.
	 */
	private RemoteCompletions heldUp(CountDownLatch writing, CountDownLatch release, @Nullable Job bad) {
		return new RemoteCompletions(new ForwardingWorkerStore(this.fake) {

			@Override
			public Set<String> complete(List<Job> group, boolean delete) {
				writing.countDown();
				await(release);
				if (bad != null && group.contains(bad)) {
					throw new IllegalStateException("bad row");
				}
				return super.complete(group, delete);
			}

		}, false);
	}

	private List<Job> claimed(int count) {
		for (int i = 0; i < count; i++) {
			this.fake.add("test.remote", "remote");
		}
		return this.fake.claim(OWNER, "remote", Map.of("test.remote", Duration.ofMinutes(5)), count);
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
