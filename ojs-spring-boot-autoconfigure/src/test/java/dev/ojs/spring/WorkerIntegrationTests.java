package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.spring.IntegrationJobs.Bound;
import dev.ojs.spring.IntegrationJobs.Customer;
import dev.ojs.spring.IntegrationJobs.EventRecorder;
import dev.ojs.spring.autoconfigure.OjsProperties;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.worker.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Full runs of {@link OjsJob @OjsJob} handlers through the worker: argument binding, every
 * exception path, the SPIs, events and a {@code @Transactional} handler. Subclasses choose
 * the database.
 */
@SpringBootTest(classes = IntegrationTestApplication.class)
@DirtiesContext
abstract class WorkerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private OjsTemplate template;

	@Autowired
	private IntegrationJobs jobs;

	@Autowired
	private IntegrationJobs.TransactionalJobs transactionalJobs;

	@Autowired
	private EventRecorder events;

	@Autowired
	private IntegrationJobs.CountingListener countingListener;

	@Autowired
	private Worker worker;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private OjsProperties properties;

	@Test
	void workerClaimsFromDefaultAndEveryHandlerQueue() {
		assertThat(this.worker.isRunning()).isTrue();
		assertThat(this.worker.status().queues()).containsKeys("default", "precedence");
		assertThat(this.worker.status().types()).contains("it.bind", "it.transactional", "it.precedence");
		// a job in the handler's own queue is claimed and run
		String id = this.template.enqueue("it.precedence", "p");
		JobInfo job = awaitTerminal(id);
		assertThat(job.queue()).isEqualTo("precedence");
		assertThat(job.state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void bindsRecordsPojosCollectionsJavaTimeAndContext() {
		Instant at = Instant.parse("2024-05-01T10:15:30.123456Z");
		String id = this.template.enqueue("it.bind", new Customer("a@b.c", 30),
				Map.of("city", "Oslo", "lines", List.of("Street 1", "Floor 2")),
				List.of(new Customer("x@y.z", 1), new Customer("p@q.r", 2)), Map.of("math", 9, "art", 7), at,
				LocalDate.of(2024, 5, 1), Duration.ofSeconds(90), 9_007_199_254_740_993L, true);
		JobInfo job = awaitTerminal(id);
		assertThat(job.state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.jobs.calls(id)).containsExactly(new Bound(new Customer("a@b.c", 30), "Oslo",
				List.of("Street 1", "Floor 2"), List.of(new Customer("x@y.z", 1), new Customer("p@q.r", 2)),
				Map.of("math", 9, "art", 7), at, LocalDate.of(2024, 5, 1), Duration.ofSeconds(90),
				9_007_199_254_740_993L, true, id, 1, 3));
	}

	@Test
	void flakyJobSucceedsAfterRetriesAndSeesItsErrorHistory() {
		String id = this.template.enqueue("it.flaky", 3);
		JobInfo job = awaitTerminal(id);
		assertThat(job.state()).isEqualTo(JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(3);
		assertThat(this.jobs.calls(id)).containsExactly(0, 1, 2);
		assertThat(job.errors()).extracting(ErrorEntry::attempt, ErrorEntry::type, ErrorEntry::code)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(1, "java.lang.IllegalStateException", ErrorCode.RETRY),
					org.assertj.core.groups.Tuple.tuple(2, "java.lang.IllegalStateException", ErrorCode.RETRY));
		List<OjsJobEvent> events = awaitEvents(id, 3);
		assertThat(events).map(Object::getClass)
			.containsExactly(JobRetryingEvent.class, JobRetryingEvent.class, JobCompletedEvent.class);
		JobRetryingEvent retrying = (JobRetryingEvent) events.get(0);
		assertThat(retrying.getJobId()).isEqualTo(id);
		assertThat(retrying.getType()).isEqualTo("it.flaky");
		assertThat(retrying.getQueue()).isEqualTo("default");
		assertThat(retrying.getAttempt()).isEqualTo(1);
		assertThat(retrying.getError().type()).isEqualTo("java.lang.IllegalStateException");
		assertThat(retrying.getError().message()).isEqualTo("not yet: attempt 1");
		// ojs.retry: initial 10ms, exponential, no jitter, max 50ms (spec §3.3)
		assertThat(retrying.getDelay()).isEqualTo(Duration.ofMillis(10));
		assertThat(((JobRetryingEvent) events.get(1)).getDelay()).isEqualTo(Duration.ofMillis(20));
		// next_retry_at (§10) = when the failure was recorded + the delay
		assertThat(retrying.getNextRetryAt()).isEqualTo(job.errors().get(0).timestamp().plus(retrying.getDelay()));
		assertThat(retrying.getHandlerDuration()).isGreaterThanOrEqualTo(Duration.ZERO);
		assertThat(events.get(2).getAttempt()).isEqualTo(3);
	}

	@Test
	void exhaustedJobIsDiscardedByDefault() {
		String id = this.template.enqueue("it.exhausted");
		JobInfo job = awaitTerminal(id);
		assertThat(job.state()).isEqualTo(JobState.DISCARDED);
		assertThat(job.deadLetter()).isFalse();
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(awaitEvents(id, 2)).map(Object::getClass)
			.containsExactly(JobRetryingEvent.class, JobDiscardedEvent.class);
	}

	@Test
	void ojsJobExceptionCodesDecide() {
		String retry = this.template.enqueue("it.ojs_exception", "RETRY");
		String discard = this.template.enqueue("it.ojs_exception", "DISCARD");
		String fail = this.template.enqueue("it.ojs_exception", "FAIL");
		String deadLetter = this.template.enqueue("it.ojs_exception", "DEAD_LETTER");
		JobInfo retried = awaitTerminal(retry);
		assertThat(retried.state()).isEqualTo(JobState.DISCARDED);
		assertThat(retried.attempt()).isEqualTo(3);
		assertThat(retried.lastError().type()).isEqualTo("it.explicit.retry");
		assertThat(retried.lastError().details()).isEqualTo(Map.of("code", "RETRY"));
		assertTerminal(discard, JobState.DISCARDED, false, 1, "it.explicit.discard", ErrorCode.DISCARD);
		assertTerminal(fail, JobState.DISCARDED, false, 1, "it.explicit.fail", ErrorCode.FAIL);
		assertTerminal(deadLetter, JobState.DISCARDED, true, 1, "it.explicit.dead_letter", ErrorCode.DEAD_LETTER);
		assertThat(awaitEvents(deadLetter, 1)).singleElement().isInstanceOf(JobDeadLetteredEvent.class);
		assertThat(awaitEvents(fail, 1)).singleElement().isInstanceOf(JobDiscardedEvent.class);
		assertThat(((JobDiscardedEvent) awaitEvents(fail, 1).get(0)).getError().code()).isEqualTo(ErrorCode.FAIL);
	}

	@Test
	void ojsErrorAnnotationDeclaresTypeAndCode() {
		String id = this.template.enqueue("it.declared");
		JobInfo job = assertTerminal(id, JobState.DISCARDED, true, 1, "it.declared", ErrorCode.DEAD_LETTER);
		assertThat(job.lastError().details())
			.containsEntry("exception", IntegrationJobs.DeclaredException.class.getName());
	}

	@Test
	void exceptionListsOfTheHandlerDecideByClosestClass() {
		assertTerminal(this.template.enqueue("it.lists", "io"), JobState.DISCARDED, false, 1,
				"java.io.FileNotFoundException", ErrorCode.DISCARD);
		assertTerminal(this.template.enqueue("it.lists", "socket"), JobState.DISCARDED, true, 1,
				"java.net.SocketException", ErrorCode.DEAD_LETTER);
		assertTerminal(this.template.enqueue("it.lists", "argument"), JobState.DISCARDED, false, 1,
				"java.lang.NumberFormatException", ErrorCode.FAIL);
		// ConnectException is a SocketException, but retryOn lists it directly: retried, then
		// exhausted into the dead letter queue (on_exhaustion dead_letter)
		assertTerminal(this.template.enqueue("it.lists", "connect"), JobState.DISCARDED, true, 2,
				"java.net.ConnectException", ErrorCode.RETRY);
		assertTerminal(this.template.enqueue("it.lists", "plain"), JobState.DISCARDED, true, 2,
				"java.lang.IllegalStateException", ErrorCode.RETRY);
	}

	@Test
	void nonRetryableErrorsMatchTheExceptionClassName() {
		assertTerminal(this.template.enqueue("it.non_retryable"), JobState.DISCARDED, true, 1,
				"java.lang.UnsupportedOperationException", ErrorCode.RETRY);
	}

	@Test
	void errorClassifierBeanOverridesTheDefault() {
		JobInfo job = assertTerminal(this.template.enqueue("it.classified"), JobState.DISCARDED, true, 1,
				"it.timeout", ErrorCode.DEAD_LETTER);
		assertThat(job.lastError().message()).isEqualTo("upstream slow");
		assertThat(job.lastError().details()).isEqualTo(Map.of("attempt", 1));
	}

	@Test
	void retryDelayCustomizerIsCappedAtMaxInterval() {
		String id = this.template.enqueue("it.custom_delay");
		assertThat(awaitTerminal(id).state()).isEqualTo(JobState.COMPLETED);
		JobRetryingEvent retrying = (JobRetryingEvent) awaitEvents(id, 2).get(0);
		// the customizer asks for 1 h; max_interval of the handler is 200 ms (RET-04/06)
		assertThat(retrying.getDelay()).isEqualTo(Duration.ofMillis(200));
		List<Object> starts = this.jobs.calls(id);
		assertThat(Duration.between((Instant) starts.get(0), (Instant) starts.get(1)))
			.isGreaterThanOrEqualTo(Duration.ofMillis(190))
			.isLessThan(TIMEOUT);
	}

	@Test
	void argumentsThatNoLongerBindFailTheJobAndTheWorkerCarriesOn() {
		String bad = this.template.enqueue("it.typed", "not a number");
		JobInfo job = assertTerminal(bad, JobState.DISCARDED, false, 1, "ojs.args_invalid", ErrorCode.FAIL);
		assertThat(job.lastError().message()).contains("argument 0");
		String tooMany = this.template.enqueue("it.typed", 1, 2);
		assertTerminal(tooMany, JobState.DISCARDED, false, 1, "ojs.args_invalid", ErrorCode.FAIL);
		String good = this.template.enqueue("it.typed", 5);
		assertThat(awaitTerminal(good).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.jobs.calls(good)).containsExactly(5);
	}

	@Test
	void transactionalHandlerRunsInItsTransaction() {
		String committed = this.template.enqueue("it.transactional", false);
		assertThat(awaitTerminal(committed).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.transactionalJobs.transactionActive()).containsEntry(committed, true);
		assertThat(followUps(committed)).isEqualTo(1);

		String rolledBack = this.template.enqueue("it.transactional", true);
		assertTerminal(rolledBack, JobState.DISCARDED, false, 1, "java.lang.IllegalStateException", ErrorCode.RETRY);
		assertThat(this.transactionalJobs.transactionActive()).containsEntry(rolledBack, true);
		assertThat(followUps(rolledBack)).isZero();
	}

	@Test
	void eventsCarryTheJob() {
		String id = this.template.enqueue("it.ok", "evented");
		awaitTerminal(id);
		JobCompletedEvent completed = (JobCompletedEvent) awaitEvents(id, 1).get(0);
		assertThat(completed.getJob().type()).isEqualTo("it.ok");
		assertThat(completed.getJob().argsJson()).contains("evented");
		assertThat(completed.getAttempt()).isEqualTo(1);
		assertThat(completed.getHandlerDuration()).isLessThan(TIMEOUT);
		assertThat(this.countingListener.completed).contains(id);
	}

	private int followUps(String id) {
		Integer count = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.properties.getJdbc().getTablePrefix()
				+ "jobs WHERE unique_key = ?", Integer.class, "follow-up-" + id);
		return (count != null) ? count : 0;
	}

	private JobInfo assertTerminal(String id, JobState state, boolean deadLetter, int attempt, String errorType,
			ErrorCode code) {
		JobInfo job = awaitTerminal(id);
		assertThat(job.state()).as("state of %s", job.argsJson()).isEqualTo(state);
		assertThat(job.deadLetter()).as("dead letter %s", job.argsJson()).isEqualTo(deadLetter);
		assertThat(job.attempt()).as("attempts of %s", job.argsJson()).isEqualTo(attempt);
		assertThat(job.lastError().type()).isEqualTo(errorType);
		assertThat(job.lastError().code()).isEqualTo(code);
		assertThat(job.errors()).hasSize(attempt);
		return job;
	}

	private JobInfo awaitTerminal(String id) {
		return await().atMost(TIMEOUT)
			.until(() -> this.template.getJob(id).orElseThrow(), (job) -> job.state().isTerminal());
	}

	private List<OjsJobEvent> awaitEvents(String id, int count) {
		return await().atMost(TIMEOUT).until(() -> this.events.of(id), (events) -> events.size() >= count);
	}

}
