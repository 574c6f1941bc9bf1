package dev.ojs.spring;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.ojs.job.Job;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.worker.JobListener;

/**
 * The handlers of the full-run tests. Each records what it saw in {@link #calls}, keyed by
 * job id.
 */
public class IntegrationJobs {

	/** Job id to what its handler saw, one entry per attempt. */
	final Map<String, List<Object>> calls = new ConcurrentHashMap<>();

	/** Job id to its place in its workflow, as its handler saw it. */
	final Map<String, WorkflowPlace> places = new ConcurrentHashMap<>();

	List<Object> calls(String id) {
		return this.calls.getOrDefault(id, List.of());
	}

	private void record(JobContext context, Object value) {
		this.calls.computeIfAbsent(context.id(), (id) -> new CopyOnWriteArrayList<>()).add(value);
	}

	private void place(JobContext context) {
		WorkflowPlace place = context.workflowPlace();
		if (place != null) {
			this.places.put(context.id(), place);
		}
	}

	// Precedence (enqueue-only node tests): handler settings between ojs.retry.* and the enqueue.
	@OjsJob(type = "it.precedence", queue = "precedence", priority = 7, maxAttempts = 6, maxInterval = "PT1M",
			onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
	public void precedence(String value) {
	}

	// Argument binding
	public record Customer(String email, int age) {
	}

	public static class Address {

		private String city;

		private List<String> lines;

		public String getCity() {
			return this.city;
		}

		public void setCity(String city) {
			this.city = city;
		}

		public List<String> getLines() {
			return this.lines;
		}

		public void setLines(List<String> lines) {
			this.lines = lines;
		}

	}

	public record Bound(Customer customer, String city, List<String> lines, List<Customer> friends,
			Map<String, Integer> scores, Instant at, LocalDate day, Duration pause, long big, boolean flag, String id,
			int attempt, int maxAttempts) {
	}

	@OjsJob(type = "it.bind")
	public void bind(Customer customer, Address address, JobContext context, List<Customer> friends,
			Map<String, Integer> scores, Instant at, LocalDate day, Duration pause, long big, boolean flag) {
		record(context, new Bound(customer, address.getCity(), address.getLines(), friends, scores, at, day, pause,
				big, flag, context.id(), context.attempt(), context.maxAttempts()));
	}

	@OjsJob(type = "it.typed")
	public void typed(int count, JobContext context) {
		record(context, count);
	}

	// Retries: fails until the given attempt, recording the previous errors it was shown.
	@OjsJob(type = "it.flaky", maxAttempts = 4)
	public void flaky(int succeedOnAttempt, JobContext context) {
		record(context, context.previousErrors().size());
		context.heartbeat();
		if (context.attempt() < succeedOnAttempt) {
			throw new IllegalStateException("not yet: attempt " + context.attempt());
		}
	}

	// Exception paths
	@OjsJob(type = "it.ojs_exception", maxAttempts = 3)
	public void ojsException(String code, JobContext context) {
		record(context, code);
		throw new OjsJobException("it.explicit." + code.toLowerCase(), ErrorCode.valueOf(code), "explicit " + code,
				Map.of("code", code));
	}

	@dev.ojs.spring.OjsError(type = "it.declared", code = ErrorCode.DEAD_LETTER)
	public static class DeclaredException extends RuntimeException {

		public DeclaredException(String message) {
			super(message);
		}

	}

	@OjsJob(type = "it.declared", maxAttempts = 3)
	public void declared(JobContext context) {
		record(context, "declared");
		throw new DeclaredException("declared failure");
	}

	@OjsJob(type = "it.lists", maxAttempts = 2, onExhaustion = OjsJob.Exhaustion.DEAD_LETTER,
			discardOn = IOException.class, deadLetterOn = SocketException.class, failOn = IllegalArgumentException.class,
			retryOn = ConnectException.class)
	public void lists(String exception, JobContext context) throws Exception {
		record(context, exception);
		switch (exception) {
			case "io" -> throw new FileNotFoundException("missing");
			case "socket" -> throw new SocketException("reset");
			case "argument" -> throw new NumberFormatException("NaN");
			case "connect" -> throw new ConnectException("refused");
			default -> throw new IllegalStateException("plain");
		}
	}

	@OjsJob(type = "it.non_retryable", maxAttempts = 5, nonRetryableErrors = "java.lang.*",
			onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
	public void nonRetryable(JobContext context) {
		record(context, "non-retryable");
		throw new UnsupportedOperationException("never works");
	}

	@OjsJob(type = "it.classified", maxAttempts = 3)
	public void classified(JobContext context) throws TimeoutException {
		record(context, "classified");
		throw new TimeoutException("upstream slow");
	}

	@OjsJob(type = "it.custom_delay", maxAttempts = 2, initialInterval = "PT0.01S", maxInterval = "PT0.2S")
	public void customDelay(JobContext context) {
		record(context, Instant.now());
		if (context.attempt() == 1) {
			throw new IllegalStateException("retry me");
		}
	}

	@OjsJob(type = "it.exhausted", maxAttempts = 2)
	public void exhausted(JobContext context) {
		record(context, "exhausted");
		throw new IllegalStateException("always");
	}

	@OjsJob(type = "it.ok")
	public void ok(String value, JobContext context) {
		record(context, value);
	}

	// Workflows: a step's return value is its result, the next step reads the results before it.

	/** A result of a workflow step. */
	public record Produced(int n) {

	}

	@OjsJob(type = "it.wf.produce", maxAttempts = 1)
	public Produced produce(int n, JobContext context) {
		record(context, n);
		place(context);
		if (n < 0) {
			throw new IllegalArgumentException("negative");
		}
		return new Produced(n);
	}

	@OjsJob(type = "it.wf.consume", maxAttempts = 1)
	public int consume(JobContext context) {
		List<Produced> results = context.parentResults(Produced.class);
		record(context, results);
		place(context);
		return results.size();
	}

	/** A {@code @Transactional} handler bean (class-based proxy). */
	public static class TransactionalJobs {

		private final OjsTemplate template;

		final Map<String, Boolean> transactionActive = new ConcurrentHashMap<>();

		public TransactionalJobs(OjsTemplate template) {
			this.template = template;
		}

		/** Enqueues a follow-up job inside its transaction, then fails if asked to. */
		@Transactional
		@OjsJob(type = "it.transactional", maxAttempts = 1)
		public void run(boolean fail, JobContext context) {
			this.transactionActive.put(context.id(), TransactionSynchronizationManager.isActualTransactionActive());
			this.template.enqueue("it.ok", List.of("follow-up of " + context.id()),
					JobOptions.builder().uniqueKey("follow-up-" + context.id()).build());
			if (fail) {
				throw new IllegalStateException("roll back");
			}
		}

		public Map<String, Boolean> transactionActive() {
			return this.transactionActive;
		}

	}

	/** The SPI beans and an event recorder. */
	@Configuration(proxyBeanMethods = false)
	public static class Spi {

		@Bean
		JobErrorClassifier timeoutClassifier() {
			return (job, failure, classified) -> (failure instanceof TimeoutException)
					? Optional.of(new JobError("it.timeout", classified.message(), ErrorCode.DEAD_LETTER,
							Map.of("attempt", job.attempt())))
					: Optional.empty();
		}

		@Bean
		RetryDelayCustomizer hourDelay() {
			return (type, attempt, error) -> type.equals("it.custom_delay") ? Optional.of(Duration.ofHours(1))
					: Optional.empty();
		}

		@Bean
		EventRecorder eventRecorder() {
			return new EventRecorder();
		}

		@Bean
		CountingListener countingListener() {
			return new CountingListener();
		}

	}

	/** A plain {@link JobListener} bean: composed with the event publisher. */
	public static class CountingListener implements JobListener {

		final Set<String> completed = ConcurrentHashMap.newKeySet();

		@Override
		public void completed(Job job, Duration handlerDuration) {
			this.completed.add(job.id());
		}

	}

	/** Every {@link OjsJobEvent} published. */
	public static class EventRecorder {

		final List<OjsJobEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(OjsJobEvent event) {
			this.events.add(event);
		}

		List<OjsJobEvent> of(String jobId) {
			return this.events.stream().filter((event) -> event.getJobId().equals(jobId)).toList();
		}

	}

}
