package dev.ojs.spring;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.PageCursor;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The rules of job filters, pages, purges and statistics periods (ojs-admin-api.md §6, §7.1,
 * §10.2): the services', so the Admin API and the Java API refuse the same values with the
 * same message and field (issue 27).
 */
class JobFilterRulesTests {

	private final AdminStore admin = mock(AdminStore.class);

	@Test
	void readsStatesByName() {
		assertThat(OjsJobs.withState(JobQuery.ALL, "dead_letter")).isEqualTo(JobQuery.deadLetters());
		JobQuery discarded = OjsJobs.withState(JobQuery.ALL, "discarded");
		assertThat(discarded.state()).isEqualTo(JobState.DISCARDED);
		assertThat(discarded.deadLetter()).isFalse();
		assertThat(OjsJobs.withState(JobQuery.ALL, "scheduled").deadLetter()).isNull();
		assertThat(OjsJobs.withState(JobQuery.ALL, " ")).isEqualTo(JobQuery.ALL);
		refused(() -> OjsJobs.withState(JobQuery.ALL, "FooBar"), "state", "Unknown state 'FooBar'");
	}

	@Test
	void readsAFilter() {
		Instant since = Instant.parse("2025-01-01T00:00:00Z");
		JobQuery query = OjsJobs.filter(null, "mail", "billing.*", "Timeout", since, null,
				"0190B8F2-0000-7000-8000-000000000001");
		assertThat(query.queue()).isEqualTo("mail");
		assertThat(query.type()).isEqualTo("billing.");
		assertThat(query.typePrefix()).isTrue();
		assertThat(query.since()).isEqualTo(since);
		assertThat(query.id()).isEqualTo("0190b8f2-0000-7000-8000-000000000001");
		refused(() -> OjsJobs.filter(null, null, null, null, null, null, "nope"), "id", "id must be a UUID: nope");
		refused(() -> OjsJobs.filter(null, "Bad Queue", null, null, null, null, null), "queue", OjsNames.QUEUE_MESSAGE);
	}

	@Test
	void boundsAPage() {
		JobQuery first = OjsJobs.withPage(JobQuery.ALL, null, null, null);
		assertThat(first.limit()).isEqualTo(OjsJobs.DEFAULT_PAGE);
		assertThat(first.ascending()).isFalse();
		String cursor = new PageCursor("0190b8f2-0000-7000-8000-000000000001").encode();
		JobQuery next = OjsJobs.withPage(JobQuery.ALL, cursor, OjsJobs.MAX_PAGE, "ASC");
		assertThat(next.after()).isEqualTo(PageCursor.decode(cursor));
		assertThat(next.limit()).isEqualTo(OjsJobs.MAX_PAGE);
		assertThat(next.ascending()).isTrue();
		for (int size : new int[] { 0, OjsJobs.MAX_PAGE + 1 }) {
			refused(() -> OjsJobs.withPage(JobQuery.ALL, null, size, null), "per_page",
					"per_page must be between 1 and " + OjsJobs.MAX_PAGE);
		}
		refused(() -> OjsJobs.withPage(JobQuery.ALL, null, null, "up"), "order", "order must be asc or desc");
		refused(() -> OjsJobs.withPage(JobQuery.ALL, "abc", null, null), "cursor", "Invalid cursor: abc");
	}

	/** The Java API's lists follow the same rules as the edges' queries. */
	@Test
	void listsRefuseWhatTheFilterRefuses() {
		OjsJobs jobs = new OjsJobs(mock(JobStore.class), null, this.admin);
		OjsDeadLetters deadLetters = new OjsDeadLetters(mock(JobStore.class), this.admin);
		JobQuery tooLong = JobQuery.ALL.withPage(null, OjsJobs.MAX_PAGE + 1);
		refused(() -> jobs.page(tooLong), "per_page", "per_page must be between 1 and " + OjsJobs.MAX_PAGE);
		refused(() -> deadLetters.list(tooLong), "per_page", "per_page must be between 1 and " + OjsJobs.MAX_PAGE);
		refused(() -> deadLetters.groups(JobQuery.ALL.withQueue("Bad Queue")), "queue", OjsNames.QUEUE_MESSAGE);
	}

	@Test
	void purgesOnlyTerminalStates() {
		assertThat(OjsQueues.purgeStates(List.of("completed", "cancelled")))
			.containsExactlyInAnyOrder(JobState.COMPLETED, JobState.CANCELLED);
		refused(() -> OjsQueues.purgeStates(List.of()), "states", "states must be a non-empty array of terminal states");
		refused(() -> OjsQueues.purgeStates(List.of("nope")), "states", "Unknown state 'nope'");
		refused(() -> OjsQueues.purgeStates(List.of("completed", "active")), "states",
				"Only terminal states (completed, discarded, cancelled) may be purged, not active");
		OjsQueues queues = new OjsQueues(mock(JobStore.class), this.admin, () -> {
		});
		refused(() -> queues.purge("mail", Set.of(JobState.AVAILABLE), null, 10), "states",
				"Only terminal states (completed, discarded, cancelled) may be purged, not available");
	}

	@Test
	void boundsAStatisticsHistory() {
		assertThat(OjsStatistics.Period.of("5m")).isEqualTo(OjsStatistics.Period.FIVE_MINUTES);
		refused(() -> OjsStatistics.Period.of("7x"), "period", "period must be 1m, 5m or 1h");
		OjsStatistics statistics = new OjsStatistics(this.admin);
		Instant until = Instant.parse("2025-01-01T01:00:00Z");
		String bounds = "since must be before until, at most " + OjsStatistics.MAX_BUCKETS + " periods apart";
		refused(() -> statistics.history(OjsStatistics.Period.ONE_MINUTE, until, until, null), "since", bounds);
		refused(() -> statistics.history(OjsStatistics.Period.ONE_MINUTE,
				until.minusSeconds(60L * (OjsStatistics.MAX_BUCKETS + 1)), until, null), "since", bounds);
		refused(() -> statistics.history(OjsStatistics.Period.ONE_HOUR, null, until, "Bad Queue"), "queue",
				OjsNames.QUEUE_MESSAGE);
		// periods without outcomes are zeros; the first holds since
		StatsBucket counted = new StatsBucket(Instant.parse("2025-01-01T00:05:00Z"), "*", 3, 1, 0, 0, 0);
		given(this.admin.stats(any(), any(), anyInt(), any())).willReturn(List.of(counted));
		List<StatsBucket> history = statistics.history(OjsStatistics.Period.FIVE_MINUTES,
				Instant.parse("2025-01-01T00:02:00Z"), Instant.parse("2025-01-01T00:15:00Z"), null);
		assertThat(history).extracting(StatsBucket::start)
			.containsExactly(Instant.parse("2025-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:05:00Z"),
					Instant.parse("2025-01-01T00:10:00Z"));
		assertThat(history.get(1)).isSameAs(counted);
		assertThat(history.get(0).completed()).isZero();
	}

	private static void refused(Runnable call, String field, String message) {
		assertThatExceptionOfType(OjsValidationException.class).isThrownBy(call::run)
			.withMessage(message)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo(field));
	}

}
