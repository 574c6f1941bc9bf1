package dev.ojs.web.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import dev.ojs.job.RateLimit;
import dev.ojs.job.TypeLimit;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.spring.OjsTypeLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import static dev.ojs.web.dashboard.DashboardTestApplication.CHARGE;
import static dev.ojs.web.dashboard.DashboardTestApplication.DECLINED;
import static dev.ojs.web.dashboard.DashboardTestApplication.FULFILMENT;
import static dev.ojs.web.dashboard.DashboardTestApplication.PAYMENTS;
import static dev.ojs.web.dashboard.DashboardTestApplication.PICK;
import static dev.ojs.web.dashboard.DashboardTestApplication.REPORT;
import static dev.ojs.web.dashboard.DashboardTestApplication.SEND;
import static dev.ojs.web.dashboard.DashboardTestApplication.SHIP;
import static dev.ojs.web.dashboard.DashboardTestApplication.SYNC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in headless Chromium against a real application (its Admin API, worker and
 * database), under a servlet context path, with writes allowed. Every test checks what the page
 * rendered against the database, and fails on any severe browser console entry, so a broken
 * script fails it. Screenshots of every page, light and dark, go to {@code target/screenshots}.
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true", "ojs.dashboard.read-only=false", "ojs.worker.poll-interval=50ms",
				"server.servlet.context-path=/shop", "ojs.worker.node-id=shop-node-1" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractDashboardBrowserTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@LocalServerPort
	private int port;

	@Autowired
	private OjsTemplate ojs;

	@Autowired
	private OjsQueues queues;

	@Autowired
	private OjsWorkflows workflows;

	@Autowired
	private OjsTypeLimits typeLimits;

	@Autowired
	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private Browser browser;

	/** The database the application runs on, in screenshot names. */
	abstract String database();

	/** The job table's prefix. */
	abstract String tablePrefix();

	@BeforeAll
	void seedAndOpenBrowser() throws IOException {
		this.jdbc = new JdbcTemplate(this.dataSource);
		for (int i = 0; i < 6; i++) {
			this.ojs.enqueue(SEND, "customer" + i + "@example.com");
		}
		for (int i = 0; i < 3; i++) {
			this.ojs.enqueue(SYNC, "acct_" + (7781 + i));
		}
		for (int i = 0; i < 4; i++) {
			this.ojs.enqueue(CHARGE, "cus_" + (910 + i));
		}
		await().atMost(TIMEOUT).until(() -> count("dead_letter = TRUE") == 7 && count("state = 'completed'") == 6);
		this.browser = Browser.open("http://localhost:" + this.port + "/shop/ojs/");
	}

	@AfterAll
	void closeBrowser() throws IOException {
		if (this.browser != null) {
			this.browser.close();
		}
	}

	@AfterEach
	void noSevereConsoleEntries() {
		this.browser.assertNoSevereLogs();
	}

	@Test
	@Order(1)
	void loadsEveryPageInLightAndDarkThemes() {
		for (String scheme : List.of("light", "dark")) {
			this.browser.colorScheme(scheme);
			this.browser.go("overview");
			assertThat(this.browser.text("[data-kpi='Dead letters']")).isEqualTo("7");
			assertThat(this.browser.text("#incident")).contains("failed attempt");
			assertThat(this.browser.all(".chart svg rect, .chart svg polyline")).isNotEmpty();
			shot("overview", scheme);
			this.browser.click("[data-act='range'][data-range='day']");
			this.browser.waitUntil((d) -> !this.browser.all("[data-act='range'][data-range='day'].on").isEmpty()
					&& !this.browser.all(".chart svg polyline").isEmpty());
			this.browser.click("[data-act='range'][data-range='hour']");
			this.browser.waitUntil((d) -> !this.browser.all(".chart svg rect").isEmpty());
			this.browser.go("jobs");
			this.browser.waitUntil((d) -> rows("#jobs-table tbody tr[data-job]").size() == 13 + reportJobs());
			shot("jobs", scheme);
			this.browser.go("jobs/" + firstId(CHARGE));
			this.browser.find("#timeline");
			shot("job", scheme);
			this.browser.go("dead-letters");
			assertThat(this.browser.text("#groups-table")).contains(DECLINED, CHARGE, PAYMENTS,
					"java.io.IOException", SYNC);
			shot("dead-letters", scheme);
			this.browser.go("queues");
			assertThat(this.browser.text("#queues-table")).contains(PAYMENTS, "emails", "default");
			shot("queues", scheme);
			this.browser.go("recurring");
			assertThat(this.browser.text("#schedules-table")).contains(REPORT, "0 2 * * *");
			assertThat(this.browser.all("[data-schedule='" + REPORT + "'] .fire-times span")).hasSize(5);
			shot("recurring", scheme);
			this.browser.go("nodes");
			assertThat(this.browser.all("#nodes-table tbody tr[data-node]")).isNotEmpty();
			shot("nodes", scheme);
		}
		this.browser.colorScheme("light");
	}

	@Test
	@Order(2)
	void filtersJobsByTypeAndState() {
		this.browser.go("jobs");
		WebElement type = this.browser.find("#filters input[name='type']");
		type.sendKeys(CHARGE);
		this.browser.click("#apply");
		this.browser.waitUntil((d) -> d.getCurrentUrl().contains("type=" + CHARGE));
		this.browser.waitForContent();
		this.browser.waitUntil((d) -> rows("#jobs-table tbody tr[data-job]").size() == 4);
		assertThat(this.browser.texts("#jobs-table tbody tr[data-job]")).hasSize(4).allSatisfy((row) -> assertThat(row).contains(CHARGE));
		this.browser.click("[data-act='state'][data-state='completed']");
		this.browser.waitUntil((d) -> d.getCurrentUrl().contains("state=completed"));
		this.browser.waitForContent();
		this.browser.waitUntil((d) -> !this.browser.all("#jobs-table .empty").isEmpty());
		assertThat(this.browser.text("[data-count='completed']")).isEqualTo(String.valueOf(count("state = 'completed'")));
	}

	@Test
	@Order(3)
	void opensAJobWithItsErrorHistory() {
		this.browser.go("jobs?type=" + SYNC);
		this.browser.find("#jobs-table tbody tr[data-job]");
		String id = (String) this.browser.driver()
			.executeScript("return document.querySelector('#jobs-table tbody tr[data-job]').dataset.job");
		this.browser.click("#jobs-table tbody tr[data-job='" + id + "'] td");
		this.browser.waitUntil((d) -> d.getCurrentUrl().endsWith("#/jobs/" + id));
		assertThat(this.browser.text("#job-id")).isEqualTo(id);
		String timeline = this.browser.text("#timeline");
		assertThat(timeline).contains("Attempt 1 failed", "Attempt 2 failed", "java.io.IOException",
				"Partner API rejected the sync of acct_", "Moved to the dead letter queue");
		assertThat(this.browser.text("#job-args")).contains("acct_");
		assertThat(this.browser.text("#job-actions")).contains("Retry");
	}

	@Test
	@Order(4)
	void pausesAndResumesAQueue() {
		// a rate-limited queue shows its limit beside its state
		this.queues.setRateLimit("emails", new RateLimit(100, Duration.ofMinutes(1)));
		try {
			this.browser.go("queues");
			this.browser.click("[data-act='queue'][data-op='pause'][data-name='emails']");
			this.browser.waitUntil((d) -> !this.browser.all("[data-act='queue'][data-op='resume'][data-name='emails']").isEmpty());
			assertThat(paused("emails")).isTrue();
			assertThat(this.browser.text("tr[data-queue='emails']")).contains("paused").contains("≤ 100 per 1 min");
			shot("queues-paused", "light");
			this.browser.click("[data-act='queue'][data-op='resume'][data-name='emails']");
			this.browser.waitUntil((d) -> !this.browser.all("[data-act='queue'][data-op='pause'][data-name='emails']").isEmpty());
			assertThat(paused("emails")).isFalse();
		}
		finally {
			this.queues.setRateLimit("emails", null);
		}
	}

	@Test
	@Order(5)
	void bulkRetriesADeadLetterGroupAfterShowingItsCount() {
		// the retried jobs wait in their paused queue, so that they stay out of the dead letter queue
		this.queues.pause(PAYMENTS);
		try {
			this.browser.go("dead-letters");
			String group = "tr[data-group='" + DECLINED + "|" + CHARGE + "|" + PAYMENTS + "']";
			assertThat(this.browser.text(group)).contains("4");
			this.browser.click(group + " [data-act='dl-group'][data-op='retry']");
			assertThat(this.browser.text("#confirm-count")).isEqualTo("4");
			shot("dead-letters-confirm", "light");
			assertThat(count("type = '" + CHARGE + "' AND dead_letter = TRUE")).as("nothing changes before confirming").isEqualTo(4);
			this.browser.click("#modal-confirm");
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(count("type = '" + CHARGE + "' AND dead_letter = FALSE AND state = 'available' AND attempt = 0")).isEqualTo(4));
			assertThat(count("dead_letter = TRUE")).isEqualTo(3);
			this.browser.waitUntil((d) -> this.browser.all(group).isEmpty());
		}
		finally {
			this.queues.resume(PAYMENTS);
		}
	}

	@Test
	@Order(6)
	void retriesADeadLetterFromItsPage() {
		String id = firstId(SYNC);
		// the retried job waits in its paused queue, so that it stays out of the dead letter queue
		this.queues.pause("default");
		try {
			this.browser.go("jobs/" + id);
			assertThat(this.browser.text(".detail-head")).contains("dead letter");
			this.browser.click("#job-actions [data-op='retry']");
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(count("id = '" + id + "' AND state = 'available' AND attempt = 0 AND dead_letter = FALSE")).isEqualTo(1));
			this.browser.waitUntil((d) -> this.browser.text(".detail-head").contains("available"));
			assertThat(this.browser.text("#job-actions")).contains("Cancel").doesNotContain("Retry");
			assertThat(this.browser.text("#timeline")).as("the error history is kept").contains("Attempt 2 failed");
		}
		finally {
			this.queues.resume("default");
		}
	}

	@Test
	@Order(7)
	void setsAndRemovesAQueueConcurrencyLimit() {
		// ojs-queue-config.md §6.2, §6.6: the limit goes through PUT /queues/{name}/config
		this.browser.go("queues");
		this.browser.click("[data-act='limit'][data-name='emails']");
		WebElement input = this.browser.find("#limit-input");
		input.clear();
		input.sendKeys("2");
		shot("queues-limit-dialog", "light");
		this.browser.click("#limit-save");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(concurrency("emails")).isEqualTo(2));
		this.browser.waitUntil((d) -> this.browser.text("tr[data-queue='emails']").contains("0 of 2 running"));
		shot("queues-limited", "light");
		// the page of a job of a limited queue shows the queue's running jobs against its limit
		this.browser.go("jobs/" + firstId(SEND));
		this.browser.waitUntil((d) -> this.browser.text("#job-queue").contains("0 of 2 running"));
		shot("job-limited", "light");
		this.browser.go("queues");
		this.browser.click("[data-act='limit'][data-name='emails']");
		assertThat(this.browser.find("#limit-input").getAttribute("value")).isEqualTo("2");
		this.browser.click("#limit-clear");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(concurrency("emails")).isNull());
		this.browser.waitUntil((d) -> !this.browser.text("tr[data-queue='emails']").contains("running"));
		this.browser.go("jobs/" + firstId(SEND));
		assertThat(this.browser.text("#job-queue")).isEqualTo("emails");
	}

	@Test
	@Order(8)
	void showsWorkflowsTheirStepsAndCancelsOne() {
		String chain = this.workflows.chain("order-1042", List.of(step(PICK, 1042), step(SHIP, 1042)));
		String batch = this.workflows.batch("charge-and-pick", List.of(step(CHARGE, "cus_977"), step(PICK, 7)))
			.onComplete(step(SHIP, 7))
			.enqueue();
		await().atMost(TIMEOUT).until(() -> "completed".equals(workflowState(chain)) && "failed".equals(workflowState(batch)));
		// its first step waits in its paused queue, so that it is running when cancelled
		this.queues.pause(FULFILMENT);
		// the toasts of the tests before would cover the pages
		this.browser.driver().executeScript("document.querySelectorAll('.toast').forEach((t) => t.remove())");
		try {
			String waiting = this.workflows.chain("order-1043", List.of(step(PICK, 1043), step(SHIP, 1043)));
			this.browser.go("workflows");
			this.browser.waitUntil((d) -> rows("#workflows-table tbody tr[data-workflow]").size() == 3);
			assertThat(this.browser.text("#workflows-table")).contains("order-1042", "charge-and-pick", "order-1043",
					"completed", "failed", "running");
			shot("workflows", "light");
			this.browser.go("workflows/" + chain);
			this.browser.waitUntil((d) -> this.browser.text("#steps-table").contains("TRACK-1042"));
			assertThat(this.browser.text("#steps-table")).contains(PICK, SHIP, "\"items\":3", "completed");
			shot("workflow", "light");
			this.browser.go("workflows/" + batch);
			this.browser.waitUntil((d) -> this.browser.text("#steps-table").contains("on_complete"));
			assertThat(this.browser.text("#steps-table")).contains(DECLINED, "TRACK-7");
			shot("workflow-failed", "light");
			this.browser.go("workflows/" + waiting);
			this.browser.click("#workflow-actions [data-act='workflow']");
			this.browser.click("#modal-confirm");
			await().atMost(TIMEOUT).until(() -> "cancelled".equals(workflowState(waiting)));
			this.browser.waitUntil((d) -> this.browser.text(".detail-head").contains("cancelled"));
			assertThat(this.browser.all("#workflow-actions [data-act='workflow']")).isEmpty();
			assertThat(count("workflow_id = '" + waiting + "' AND state = 'cancelled'")).isEqualTo(2);
		}
		finally {
			this.queues.resume(FULFILMENT);
		}
	}

	private static OjsTemplate.Enqueue step(String type, Object arg) {
		return new OjsTemplate.Enqueue(type, List.of(arg), JobOptions.none());
	}

	private String workflowState(String id) {
		return this.jdbc.queryForObject("SELECT state FROM " + tablePrefix() + "workflows WHERE id = '" + id + "'",
				String.class);
	}

	/**
	 * The page of a job of a limited type shows the type's running jobs against its
	 * limit on all nodes, and its limit per key, read from the Admin API's {@code GET /limits}.
	 */
	@Test
	@Order(9)
	void showsAJobTypesLimitOnItsJobsPage() {
		try {
			this.typeLimits.set(SEND, 3, 1);
			this.browser.go("jobs/" + firstId(SEND));
			this.browser.waitUntil((d) -> this.browser.text("#job-type-limit").contains("0 of 3 running"));
			assertThat(this.browser.text("#job-type-limit")).contains("at most 1 per key");
			shot("job-type-limited", "light");
		}
		finally {
			this.typeLimits.set(SEND, null, null);
		}
		this.browser.go("queues");
		this.browser.go("jobs/" + firstId(SEND));
		this.browser.find("#job-queue");
		this.browser.waitUntil((d) -> rows("#job-type-limit").isEmpty());
	}

	/**
	 * Issue 30: the queues page lists every limited job type with its running jobs against its
	 * limit, and sets, changes and removes a type's limits through the Admin API's
	 * {@code PUT /limits/types/{type}}; a limit the server refuses is shown with its message.
	 */
	@Test
	@Order(10)
	void setsChangesAndRemovesAJobTypesLimit() {
		this.browser.driver().executeScript("document.querySelectorAll('.toast').forEach((t) => t.remove())");
		this.browser.go("queues");
		assertThat(this.browser.text("#type-limits-table")).contains("No job type has a limit");
		// set: a type without limits, named in the dialog
		this.browser.click("#type-limit-add");
		this.browser.find("#type-limit-type").sendKeys(SEND);
		this.browser.find("#type-limit-input").sendKeys("2");
		this.browser.find("#type-limit-per-key").sendKeys("1");
		shot("type-limit-dialog", "light");
		this.browser.click("#type-limit-save");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.typeLimits.limit(SEND)).isEqualTo(new TypeLimit(2, 1)));
		this.browser.waitUntil((d) -> this.browser.text("#type-limits-table").contains("0 of 2 running"));
		assertThat(this.browser.text("tr[data-type='" + SEND + "']")).contains(SEND, "at most 1 per key");
		shot("type-limited", "light");
		// change: the dialog shows the current limits; an empty field removes that one
		this.browser.click("tr[data-type='" + SEND + "'] [data-act='type-limit']");
		WebElement concurrency = this.browser.find("#type-limit-input");
		assertThat(concurrency.getAttribute("value")).isEqualTo("2");
		assertThat(this.browser.find("#type-limit-per-key").getAttribute("value")).isEqualTo("1");
		concurrency.clear();
		concurrency.sendKeys("4");
		this.browser.find("#type-limit-per-key").clear();
		this.browser.click("#type-limit-save");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.typeLimits.limit(SEND)).isEqualTo(new TypeLimit(4, null)));
		this.browser.waitUntil((d) -> this.browser.text("tr[data-type='" + SEND + "']").contains("0 of 4 running"));
		assertThat(this.browser.text("tr[data-type='" + SEND + "']")).doesNotContain("per key");
		// the server's validation, not the page's, refuses a name that is not a job type
		this.browser.click("#type-limit-add");
		this.browser.find("#type-limit-type").sendKeys("Bad_Type");
		this.browser.find("#type-limit-input").sendKeys("1");
		this.browser.click("#type-limit-save");
		this.browser.waitUntil((d) -> !this.browser.all(".toast.error").isEmpty());
		assertThat(this.browser.text(".toast.error")).contains("type");
		this.browser.assertNoSevereLogsExcept((message) -> message.contains("400"));
		assertThat(this.typeLimits.limits()).containsOnlyKeys(SEND);
		// remove
		this.browser.click("tr[data-type='" + SEND + "'] [data-act='type-limit']");
		this.browser.click("#type-limit-clear");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.typeLimits.limits()).doesNotContainKey(SEND));
		this.browser.waitUntil((d) -> this.browser.all("tr[data-type='" + SEND + "']").isEmpty());
		assertThat(this.browser.text("#type-limits-table")).contains("No job type has a limit");
	}

	private List<WebElement> rows(String css) {
		return this.browser.driver().findElements(By.cssSelector(css));
	}

	private void shot(String page, String scheme) {
		this.browser.screenshot(database() + "-" + page + "-" + scheme);
	}

	private int reportJobs() {
		return count("type = 'shop.report'");
	}

	private String firstId(String type) {
		return this.jdbc.queryForObject("SELECT id FROM " + tablePrefix() + "jobs WHERE type = ? ORDER BY created_at LIMIT 1",
				String.class, type);
	}

	private int count(String where) {
		Integer count = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + tablePrefix() + "jobs WHERE " + where, Integer.class);
		return count == null ? 0 : count;
	}

	private Integer concurrency(String queue) {
		List<Integer> concurrency = this.jdbc.queryForList("SELECT concurrency FROM " + tablePrefix() + "queues WHERE name = ?",
				Integer.class, queue);
		return concurrency.isEmpty() ? null : concurrency.get(0);
	}

	private boolean paused(String queue) {
		List<Boolean> paused = this.jdbc.queryForList("SELECT paused FROM " + tablePrefix() + "queues WHERE name = ?",
				Boolean.class, queue);
		return !paused.isEmpty() && paused.get(0);
	}

}
