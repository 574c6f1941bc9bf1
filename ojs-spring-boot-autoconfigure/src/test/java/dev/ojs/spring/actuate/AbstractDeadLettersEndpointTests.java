package dev.ojs.spring.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ojs.job.AttemptFailure;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.actuate.DeadLettersEndpoint.DeadLetterDescriptor;
import dev.ojs.spring.actuate.DeadLettersEndpoint.DeadLetterPageDescriptor;
import dev.ojs.spring.actuate.DeadLettersEndpoint.DeadLetterStatsDescriptor;
import dev.ojs.spring.actuate.DeadLettersEndpoint.DeadLetterSummaryDescriptor;
import dev.ojs.testsupport.DatabaseTests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

/**
 * Tests for {@link DeadLettersEndpoint} and {@link DeadLettersEndpointWebExtension} on a
 * real {@link JdbcJobStore}, run against each database by a subclass, with dead letters
 * seeded through the store's own claim and fail operations at controlled times.
 */
abstract class AbstractDeadLettersEndpointTests extends DatabaseTests {

	private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

	private static final RetryPolicy POLICY = RetryPolicy.builder()
		.maxAttempts(2)
		.onExhaustion(OnExhaustion.DEAD_LETTER)
		.build()
		.effective();

	private JdbcJobStore store;

	private DeadLettersEndpoint endpoint;

	private DeadLettersEndpointWebExtension web;

	@BeforeEach
	void createStore() {
		this.schema.clear();
		this.store = new JdbcJobStore(this.schema.dataSource(), this.schema.settings(),
				Clock.fixed(T0, ZoneOffset.UTC));
		this.endpoint = new DeadLettersEndpoint(new OjsDeadLetters(this.store));
		this.web = new DeadLettersEndpointWebExtension(this.endpoint);
	}

	@Test
	void listsNewestFirstWithTheLatestError() {
		String older = seed("mail.send", "mail", "smtp.timeout", 1);
		String newer = seed("payment.charge", "payments", "payment.declined", 2);
		DeadLetterPageDescriptor page = list(null, null, null, null, null);
		assertThat(page.total()).isEqualTo(2);
		assertThat(page.page()).isZero();
		assertThat(page.offset()).isZero();
		assertThat(page.limit()).isEqualTo(DeadLettersEndpoint.DEFAULT_PAGE_SIZE);
		assertThat(page.deadLetters()).extracting(DeadLetterSummaryDescriptor::id).containsExactly(newer, older);
		DeadLetterSummaryDescriptor first = page.deadLetters().get(0);
		assertThat(first.type()).isEqualTo("payment.charge");
		assertThat(first.queue()).isEqualTo("payments");
		assertThat(first.attempt()).isEqualTo(1);
		assertThat(first.maxAttempts()).isEqualTo(2);
		assertThat(first.lastError().type()).isEqualTo("payment.declined");
		assertThat(first.lastError().attempt()).isEqualTo(1);
		assertThat(first.createdAt()).isEqualTo(T0);
		assertThat(first.enqueuedAt()).isEqualTo(T0);
		assertThat(first.deadLetteredAt()).isEqualTo(at(2));
	}

	@Test
	void onlyDeadLettersAreListed() {
		seed("a", "q", "e", 1);
		String discarded = insert("a", "q");
		failOnce(discarded, "e", at(2), false);
		insert("a", "q");
		assertThat(list(null, null, null, null, null).total()).isEqualTo(1);
	}

	@Test
	void filtersByQueueTypeLatestErrorTypeAndTime() {
		seed("mail.send", "mail", "smtp.timeout", 1);
		seed("mail.send", "mail", "smtp.rejected", 2);
		seed("payment.charge", "payments", "smtp.timeout", 3);
		seed("payment.charge", "mail", "payment.declined", 4);
		assertThat(list("mail", null, null, null, null).total()).isEqualTo(3);
		assertThat(list(null, "payment.charge", null, null, null).total()).isEqualTo(2);
		assertThat(list(null, null, "smtp.timeout", null, null).total()).isEqualTo(2);
		assertThat(list("mail", "mail.send", "smtp.timeout", null, null).total()).isEqualTo(1);
		assertThat(list(null, null, null, at(2), null).total()).isEqualTo(3);
		assertThat(list(null, null, null, null, at(2)).total()).isEqualTo(1);
		assertThat(list(null, null, null, at(2), at(4)).total()).isEqualTo(2);
		assertThat(list(" ", "", null, null, null).total()).isEqualTo(4);
	}

	@Test
	void filterOnTheLatestErrorOnly() {
		String id = insert("a", "q");
		failOnce(id, "first.error", at(1), false, JobState.RETRYABLE);
		this.store.find(id).orElseThrow();
		// due again at once: claim the retry and dead-letter it with another error
		failOnce(id, "second.error", at(2), true);
		assertThat(list(null, null, "second.error", null, null).total()).isEqualTo(1);
		assertThat(list(null, null, "first.error", null, null).total()).isZero();
	}

	@Test
	void rejectsATimeRangeEndingBeforeItStarts() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> list(null, null, null, at(2), at(1)))
			.withMessageContaining("'from'");
	}

	@Test
	void paginatesByPageAndSize() {
		List<String> ids = seedMany(5);
		DeadLetterPageDescriptor page = this.endpoint.deadLetters(null, null, null, null, null, 1, 2, null, null);
		assertThat(page.total()).isEqualTo(5);
		assertThat(page.page()).isEqualTo(1);
		assertThat(page.offset()).isEqualTo(2);
		assertThat(page.limit()).isEqualTo(2);
		assertThat(page.deadLetters()).extracting(DeadLetterSummaryDescriptor::id)
			.containsExactly(ids.get(2), ids.get(1));
		assertThat(this.endpoint.deadLetters(null, null, null, null, null, 2, 2, null, null).deadLetters())
			.extracting(DeadLetterSummaryDescriptor::id)
			.containsExactly(ids.get(0));
		assertThat(this.endpoint.deadLetters(null, null, null, null, null, 3, 2, null, null).deadLetters()).isEmpty();
	}

	@Test
	void paginatesByOffsetAndLimit() {
		List<String> ids = seedMany(5);
		DeadLetterPageDescriptor page = this.endpoint.deadLetters(null, null, null, null, null, null, null, 1, 3);
		assertThat(page.total()).isEqualTo(5);
		assertThat(page.page()).isNull();
		assertThat(page.offset()).isEqualTo(1);
		assertThat(page.limit()).isEqualTo(3);
		assertThat(page.deadLetters()).extracting(DeadLetterSummaryDescriptor::id)
			.containsExactly(ids.get(3), ids.get(2), ids.get(1));
		assertThat(this.endpoint.deadLetters(null, null, null, null, null, null, null, 4, null).limit())
			.isEqualTo(DeadLettersEndpoint.DEFAULT_PAGE_SIZE);
	}

	@Test
	void capsThePageSize() {
		assertThat(this.endpoint.deadLetters(null, null, null, null, null, null, 5000, null, null).limit())
			.isEqualTo(DeadLettersEndpoint.MAX_PAGE_SIZE);
		assertThat(this.endpoint.deadLetters(null, null, null, null, null, null, null, null, 201).limit())
			.isEqualTo(DeadLettersEndpoint.MAX_PAGE_SIZE);
	}

	@Test
	void rejectsInvalidPagination() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.deadLetters(null, null, null, null, null, 0, null, 0, null))
			.withMessageContaining("not both");
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.deadLetters(null, null, null, null, null, null, 0, null, null));
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.deadLetters(null, null, null, null, null, -1, null, null, null));
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.deadLetters(null, null, null, null, null, null, null, -1, null));
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.deadLetters(null, null, null, null, null, Integer.MAX_VALUE, 200, null,
					null));
	}

	@Test
	void showsOneDeadLetterWithArgsMetaHistoryAndPolicyAsJson() {
		String id = insert("report.build", "reports", "[\"r-1\",{\"pages\":[1,2]},3.5,null]", "{\"tenant\":\"acme\"}");
		failOnce(id, "render.failed", at(1), false, JobState.RETRYABLE);
		failOnce(id, "render.crashed", at(2), true);
		DeadLetterDescriptor detail = (DeadLetterDescriptor) this.endpoint.deadLetter(id);
		assertThat(detail.id()).isEqualTo(id);
		assertThat(detail.type()).isEqualTo("report.build");
		assertThat(detail.queue()).isEqualTo("reports");
		assertThat(detail.state()).isEqualTo("discarded");
		assertThat(detail.attempt()).isEqualTo(2);
		assertThat(detail.args()).asInstanceOf(LIST)
			.containsExactly("r-1", Map.of("pages", List.of(1, 2)), 3.5, null);
		assertThat(detail.meta()).asInstanceOf(MAP).containsEntry("tenant", "acme");
		assertThat(detail.retryPolicy()).asInstanceOf(MAP)
			.containsEntry("max_attempts", 2)
			.containsEntry("on_exhaustion", "dead_letter")
			.containsEntry("initial_interval", "PT1S")
			.hasSize(8);
		assertThat(detail.errors()).extracting(ErrorEntry::attempt, ErrorEntry::type)
			.containsExactly(tuple(1, "render.failed"),
					tuple(2, "render.crashed"));
		assertThat(detail.errors().get(1).details()).containsEntry("attempt", 2);
		assertThat(detail.createdAt()).isEqualTo(T0);
		assertThat(detail.enqueuedAt()).isEqualTo(T0);
		assertThat(detail.deadLetteredAt()).isEqualTo(at(2));
	}

	@Test
	void detailOfAnUnknownOrLiveJobIsNull() {
		assertThat(this.endpoint.deadLetter("0190b6f0-0000-7000-8000-000000000000")).isNull();
		assertThat(this.endpoint.deadLetter("not-an-id")).isNull();
		assertThat(this.endpoint.deadLetter(insert("a", "q"))).isNull();
	}

	@Test
	void statsSelectorSummarisesTheQueue() {
		assertThat(this.endpoint.deadLetter(DeadLettersEndpoint.STATS_SELECTOR))
			.isEqualTo(new DeadLetterStatsDescriptor(0, Map.of(), Map.of(), null, null));
		seed("a", "mail", "smtp.timeout", 1);
		seed("a", "mail", "smtp.timeout", 2);
		seed("b", "payments", "payment.declined", 3);
		DeadLetterStatsDescriptor stats = (DeadLetterStatsDescriptor) this.endpoint.deadLetter("stats");
		assertThat(stats.total()).isEqualTo(3);
		assertThat(stats.byQueue()).containsExactlyInAnyOrderEntriesOf(Map.of("mail", 2L, "payments", 1L));
		assertThat(stats.byErrorType())
			.containsExactlyInAnyOrderEntriesOf(Map.of("smtp.timeout", 2L, "payment.declined", 1L));
		assertThat(stats.oldest()).isEqualTo(at(1));
		assertThat(stats.newest()).isEqualTo(at(3));
		assertThat(this.endpoint.stats()).isEqualTo(stats);
	}

	@Test
	void retryOneMakesItAvailableWithTheSameIdPolicyAndHistory() {
		String id = seed("a", "q", "boom", 1);
		Job before = this.store.find(id).orElseThrow();
		assertThat(this.endpoint.retryDeadLetter(id)).isEqualTo(new DeadLettersEndpoint.RetriedDescriptor(1));
		Job after = this.store.find(id).orElseThrow();
		assertThat(after.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(after.deadLetter()).isFalse();
		assertThat(after.attempt()).isZero();
		assertThat(after.retryPolicy()).isEqualTo(before.retryPolicy());
		assertThat(after.errors()).isEqualTo(before.errors());
		assertThat(this.endpoint.deadLetter(id)).isNull();
		assertThat(this.endpoint.retryDeadLetter(id)).isNull();
	}

	@Test
	void webRetryOfAnUnknownDeadLetterIsNotFound() {
		String id = seed("a", "q", "boom", 1);
		assertThat(this.web.retryDeadLetter(id).getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		assertThat(this.web.retryDeadLetter(id).getStatus()).isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
		assertThat(this.web.retryDeadLetter("stats").getStatus()).isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
	}

	@Test
	void bulkRetryRequiresConfirmation() {
		seed("a", "mail", "boom", 1);
		seed("a", "mail", "boom", 2);
		seed("a", "payments", "boom", 3);
		for (Boolean confirm : new Boolean[] { null, false }) {
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> this.endpoint.retryDeadLetters("mail", null, null, null, null, confirm))
				.withMessageContaining("confirm=true")
				.withMessageContaining("2 dead letter(s) match");
			WebEndpointResponse<Object> refused = this.web.retryDeadLetters("mail", null, null, null, null, confirm);
			assertThat(refused.getStatus()).isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
			assertThat(refused.getBody()).isInstanceOfSatisfying(
					DeadLettersEndpoint.ConfirmationRequiredDescriptor.class, (body) -> {
						assertThat(body.error()).isEqualTo("confirmation_required");
						assertThat(body.matching()).isEqualTo(2);
					});
		}
		assertThat(this.store.deadLetterStats().total()).isEqualTo(3);
	}

	@Test
	void bulkRetryWithConfirmationRetriesEveryMatchingDeadLetter() {
		String mail1 = seed("a", "mail", "boom", 1);
		String mail2 = seed("b", "mail", "boom", 2);
		String payment = seed("a", "payments", "boom", 3);
		assertThat(this.endpoint.retryDeadLetters("mail", null, null, null, null, true).retried()).isEqualTo(2);
		assertThat(this.store.find(mail1).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.store.find(mail2).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
		assertThat(this.store.find(payment).orElseThrow().deadLetter()).isTrue();
		WebEndpointResponse<Object> retried = this.web.retryDeadLetters(null, null, null, null, null, true);
		assertThat(retried.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		assertThat(retried.getBody()).isEqualTo(new DeadLettersEndpoint.RetriedDescriptor(1));
		assertThat(this.store.deadLetterStats().total()).isZero();
	}

	@Test
	void deletesOneDeadLetter() {
		String id = seed("a", "q", "boom", 1);
		String live = insert("a", "q");
		assertThat(this.endpoint.deleteDeadLetter(live)).isFalse();
		assertThat(this.web.deleteDeadLetter(id).getStatus()).isEqualTo(WebEndpointResponse.STATUS_NO_CONTENT);
		assertThat(this.store.find(id)).isEmpty();
		assertThat(this.web.deleteDeadLetter(id).getStatus()).isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
		assertThat(this.store.find(live)).isPresent();
	}

	private DeadLetterPageDescriptor list(String queue, String type, String errorType, Instant from, Instant to) {
		return this.endpoint.deadLetters(queue, type, errorType, from, to, null, null, null, null);
	}

	/** Dead letters dead-lettered one minute apart, oldest first. */
	private List<String> seedMany(int count) {
		List<String> ids = new ArrayList<>();
		for (int i = 1; i <= count; i++) {
			ids.add(seed("a", "q", "boom", i));
		}
		return ids;
	}

	/** A job dead-lettered on its first attempt, {@code minutes} after {@link #T0}. */
	private String seed(String type, String queue, String errorType, int minutes) {
		String id = insert(type, queue);
		failOnce(id, errorType, at(minutes), true);
		return id;
	}

	private String insert(String type, String queue) {
		return insert(type, queue, "[]", "{}");
	}

	private String insert(String type, String queue, String args, String meta) {
		return this.store.insert(List.of(new NewJob(type, queue, 0, args, meta, POLICY, null, null, POLICY.effective().maxAttempts()))).get(0);
	}

	private void failOnce(String id, String errorType, Instant failedAt, boolean deadLetter) {
		failOnce(id, errorType, failedAt, deadLetter, JobState.DISCARDED);
	}

	/** Claims the job as a worker would and records its attempt as failed. */
	private void failOnce(String id, String errorType, Instant failedAt, boolean deadLetter, JobState state) {
		Job job = this.store.find(id).orElseThrow();
		Job claimed = this.store.claim("node-1", job.queue(), Map.of(job.type(), Duration.ofMinutes(1)), 100)
			.stream()
			.filter((candidate) -> candidate.id().equals(id))
			.findFirst()
			.orElseThrow();
		List<ErrorEntry> errors = new ArrayList<>(claimed.errors());
		errors.add(new ErrorEntry(claimed.attempt(), errorType, errorType + " happened", ErrorCode.RETRY, failedAt,
				Map.of("attempt", claimed.attempt())));
		Instant nextRetryAt = (state == JobState.RETRYABLE) ? T0 : null;
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, state, nextRetryAt, errors, deadLetter,
				failedAt))))
			.containsExactly(id);
	}

	private static Instant at(int minutes) {
		return T0.plus(Duration.ofMinutes(minutes));
	}

}
