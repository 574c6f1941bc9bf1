package dev.ojs.spring;

import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * Tests for {@link OjsDeadLetters}: its rules hold for every caller, Java or an edge
 * (ojs-dead-letter.md, spec README decision 13).
 */
class OjsDeadLettersTests {

	private final JobStore jobs = mock(JobStore.class);

	private final AdminStore admin = mock(AdminStore.class);

	private final OjsDeadLetters deadLetters = new OjsDeadLetters(this.jobs, this.admin);

	@Test
	void rejectsPagesOutOfBoundsNamingTheField() {
		assertRejected(() -> this.deadLetters.list(DeadLetterFilter.ALL, 0, 0), "limit",
				"'limit' must be from 1 to 1000.");
		assertRejected(() -> this.deadLetters.list(DeadLetterFilter.ALL, 0, OjsDeadLetters.MAX_PAGE_SIZE + 1), "limit",
				"'limit' must be from 1 to 1000.");
		assertRejected(() -> this.deadLetters.list(DeadLetterFilter.ALL, -1, 10), "offset",
				"'offset' must not be negative.");
		assertRejected(() -> this.deadLetters.list(DeadLetterFilter.ALL, "not a cursor", 0, 10), "cursor",
				"'cursor' is not a cursor this server returned.");
		Instant now = Instant.parse("2026-03-01T10:00:00Z");
		assertRejected(() -> this.deadLetters.count(new DeadLetterFilter(null, null, null, now, now.minusSeconds(1))),
				"from", "'from' (2026-03-01T10:00:00Z) must not be after 'to' (2026-03-01T09:59:59Z)");
		verifyNoInteractions(this.jobs);
	}

	@Test
	void aPageTellsWhetherMoreFollowAndWhereTheNextStarts() {
		Job newer = deadLetter("0190b6f0-0000-7000-8000-000000000002", Instant.parse("2026-03-01T10:02:00Z"));
		Job older = deadLetter("0190b6f0-0000-7000-8000-000000000001", Instant.parse("2026-03-01T10:01:00Z"));
		given(this.jobs.findDeadLetters(DeadLetterFilter.ALL, 0, 2)).willReturn(List.of(newer, older));
		given(this.jobs.countDeadLetters(DeadLetterFilter.ALL)).willReturn(2L);
		OjsDeadLetters.Page first = this.deadLetters.list(DeadLetterFilter.ALL, 0, 1);
		assertThat(first.items()).containsExactly(newer);
		assertThat(first.total()).isEqualTo(2);
		assertThat(first.hasMore()).isTrue();
		given(this.jobs.findDeadLettersBefore(DeadLetterFilter.ALL, newer.discardedAt(), newer.id(), 2))
			.willReturn(List.of(older));
		OjsDeadLetters.Page second = this.deadLetters.list(DeadLetterFilter.ALL, first.nextCursor(), 0, 1);
		assertThat(second.items()).containsExactly(older);
		assertThat(second.hasMore()).isFalse();
		assertThat(second.nextCursor()).isNull();
	}

	@Test
	void retryAndDeleteTellAMissingDeadLetterFromARefusal() {
		String id = "0190b6f0-0000-7000-8000-000000000003";
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> this.deadLetters.retry(id));
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> this.deadLetters.delete(id));
		given(this.jobs.find(id)).willReturn(Optional.of(deadLetter(id, Instant.now())));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.deadLetters.retry(id))
			.withMessageContaining("unique key");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.deadLetters.delete(id))
			.withMessageContaining("is not a dead letter");
	}

	@Test
	void bulkOperationsOnlyCountUntilConfirmedAndOnlyTouchDeadLetters() {
		given(this.admin.count(any(), anyLong())).willReturn(new JobCount(3, false));
		given(this.admin.ids(any(), anyInt())).willReturn(List.of("a", "b"));
		given(this.admin.retry(List.of("a", "b"))).willReturn(1);
		BulkResult counted = this.deadLetters.retry(JobQuery.ALL, false, 2);
		assertThat(counted.confirmed()).isFalse();
		assertThat(counted.matched()).isEqualTo(3);
		verify(this.admin, never()).retry(any());
		BulkResult retried = this.deadLetters.retry(JobQuery.ALL, true, 2);
		assertThat(retried).isEqualTo(new BulkResult(3, false, true, 1, 1, 2, true));
		verify(this.admin).ids(JobQuery.ALL.withState(JobState.DISCARDED, true), 2);
	}

	@Test
	void theAdminQueriesNeedAnAdminStore() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> new OjsDeadLetters(this.jobs).groups(JobQuery.ALL));
	}

	private static void assertRejected(Runnable call, String field, String message) {
		assertThatExceptionOfType(OjsValidationException.class).isThrownBy(call::run)
			.withMessage(message)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo(field));
	}

	private static Job deadLetter(String id, Instant at) {
		return new Job(id, "mail.send", "mail", "[]", "{}", 0, JobState.DISCARDED, 1, 1, RetryPolicy.builder().build(),
				List.of(), true, null, at, at, at, at, null, at, null, null);
	}

}
