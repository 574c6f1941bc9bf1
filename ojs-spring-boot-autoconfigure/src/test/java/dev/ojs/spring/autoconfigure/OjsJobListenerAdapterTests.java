package dev.ojs.spring.autoconfigure;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ojs.job.Job;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.testsupport.StoredJobs;
import dev.ojs.worker.JobListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Tests for {@link OjsJobListenerAdapter} and the default
 * {@link OjsJobListener#supportsEventType}.
 */
class OjsJobListenerAdapterTests {

	private static final JobError ERROR = new JobError("t", "m", ErrorCode.RETRY, java.util.Map.of());

	private final Job job = StoredJobs.job("mail.send").attempt(1).build();

	@Test
	void withoutListenersTheWorkerGetsNone() {
		assertThat(OjsJobListenerAdapter.of(List.of(), JobInfo::of)).isSameAs(JobListener.NONE);
	}

	@Test
	void byDefaultAListenerSupportsTheTypesWhoseMethodItOverrides() {
		OjsJobListener completedOnly = new OjsJobListener() {
			@Override
			public void onCompleted(JobCompletedEvent event) {
			}
		};
		assertThat(completedOnly.supportsEventType(JobCompletedEvent.class)).isTrue();
		assertThat(completedOnly.supportsEventType(JobRetryingEvent.class)).isFalse();
		assertThat(completedOnly.supportsEventType(JobDiscardedEvent.class)).isFalse();
		assertThat(completedOnly.supportsEventType(JobDeadLetteredEvent.class)).isFalse();
		assertThat(new Recorder().supportsEventType(JobDeadLetteredEvent.class)).isTrue();
	}

	@Test
	void eachOutcomeIsOneEventHandedToEveryListenerInOrder() {
		Recorder first = new Recorder();
		Recorder second = new Recorder();
		JobListener dispatcher = OjsJobListenerAdapter.of(List.of(first, second), JobInfo::of);
		dispatcher.completed(this.job, Duration.ofMillis(5));
		dispatcher.retrying(this.job, ERROR, Instant.EPOCH, Duration.ofSeconds(1), Duration.ZERO);
		dispatcher.discarded(this.job, ERROR, Duration.ZERO);
		dispatcher.deadLettered(this.job, ERROR, Duration.ZERO);
		assertThat(first.events).map(Object::getClass)
			.containsExactly(JobCompletedEvent.class, JobRetryingEvent.class, JobDiscardedEvent.class,
					JobDeadLetteredEvent.class);
		assertThat(second.events).hasSize(4);
		for (int i = 0; i < 4; i++) {
			assertThat(second.events.get(i)).isSameAs(first.events.get(i));
		}
		JobCompletedEvent completed = (JobCompletedEvent) first.events.get(0);
		assertThat(completed.getJobId()).isEqualTo(this.job.id());
		assertThat(completed.getHandlerDuration()).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void aListenerThatThrowsDoesNotStopTheOthers() {
		OjsJobListener failing = new OjsJobListener() {
			@Override
			public void onCompleted(JobCompletedEvent event) {
				throw new IllegalStateException("listener failed");
			}
		};
		Recorder recorder = new Recorder();
		OjsJobListenerAdapter.of(List.of(failing, recorder), JobInfo::of).completed(this.job, Duration.ZERO);
		assertThat(recorder.events).hasSize(1);
	}

	@Test
	void anOutcomeThatNoListenerSupportsBuildsNoEvent() {
		OjsJobListener completedOnly = new OjsJobListener() {
			@Override
			public void onCompleted(JobCompletedEvent event) {
				throw new AssertionError("not asked for");
			}

			@Override
			public boolean supportsEventType(Class<? extends OjsJobEvent> eventType) {
				return false;
			}
		};
		JobListener dispatcher = OjsJobListenerAdapter.of(List.of(completedOnly), JobInfo::of);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
			.getThreadMXBean();
		assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
		threads.setThreadAllocatedMemoryEnabled(true);
		dispatcher.completed(this.job, Duration.ZERO);
		long before = threads.getCurrentThreadAllocatedBytes();
		for (int i = 0; i < 100_000; i++) {
			dispatcher.completed(this.job, Duration.ZERO);
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		// an event and its JobInfo are well over 100 bytes: 100,000 of them would be > 10 MB
		assertThat(allocated).isLessThan(1_000_000);
	}

	private static final class Recorder implements OjsJobListener {

		final List<OjsJobEvent> events = new ArrayList<>();

		@Override
		public void onCompleted(JobCompletedEvent event) {
			this.events.add(event);
		}

		@Override
		public void onRetrying(JobRetryingEvent event) {
			this.events.add(event);
		}

		@Override
		public void onDiscarded(JobDiscardedEvent event) {
			this.events.add(event);
		}

		@Override
		public void onDeadLettered(JobDeadLetteredEvent event) {
			this.events.add(event);
		}

	}

}
