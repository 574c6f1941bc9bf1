package dev.ojs.web.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import dev.ojs.job.TypeLimit;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsTypeLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.ojs.web.dashboard.DashboardTestApplication.CHARGE;
import static dev.ojs.web.dashboard.DashboardTestApplication.SEND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard with the defaults an operator gets ({@code ojs.dashboard.read-only=true}),
 * with {@code ojs.dashboard.show-args=false} and at a path of its own: no write button on any
 * page, a Read-only badge, and a job's arguments hidden.
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true", "ojs.dashboard.show-args=false", "ojs.dashboard.path=/ops/jobs",
				"ojs.worker.poll-interval=50ms" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadOnlyDashboardBrowserTests {

	private static final String TABLE_PREFIX = "dash_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	@LocalServerPort
	private int port;

	@Autowired
	private OjsTemplate ojs;

	@Autowired
	private OjsTypeLimits typeLimits;

	@Autowired
	private DataSource dataSource;

	private Browser browser;

	private String id;

	private String sent;

	@DynamicPropertySource
	static void tablePrefix(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@BeforeAll
	void seedAndOpenBrowser() throws IOException {
		this.id = this.ojs.enqueue(CHARGE, "cus_4111");
		this.sent = this.ojs.enqueue(SEND, "secret.person@example.com");
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE_PREFIX
					+ "jobs WHERE dead_letter = TRUE OR state = 'completed'", Integer.class) == 2);
		this.browser = Browser.open("http://localhost:" + this.port + "/ops/jobs/");
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
	void showsNoWriteButtonAnywhere() {
		for (String route : new String[] { "overview", "jobs?type=" + CHARGE, "jobs/" + this.id, "dead-letters", "queues",
				"recurring", "nodes" }) {
			this.browser.go(route);
			assertThat(this.browser.text("#readonly-badge")).isEqualTo("Read-only");
			assertThat(this.browser.all("#content [data-act='job'], #content [data-act='queue'], #content [data-act='schedule'], "
					+ "#content [data-act='dl-group'], #content [data-act='bulk'], #content [data-act='limit'], "
					+ "#content [data-act='type-limit']"))
				.as("write buttons on %s", route)
				.isEmpty();
		}
		this.browser.go("dead-letters");
		assertThat(this.browser.text("#groups-table")).contains(CHARGE);
		this.browser.screenshot("read-only-dead-letters");
	}

	/**
	 * Issue 30: a job type's limit shows, running against the limit, without its control, and
	 * the Admin API refuses the write the control would send.
	 */
	@Test
	void showsTypeLimitsAndRefusesChangingThem() {
		this.typeLimits.set(CHARGE, 2, null);
		try {
			this.browser.go("queues");
			this.browser.waitUntil((d) -> this.browser.text("#type-limits-table").contains("0 of 2 running"));
			assertThat(this.browser.text("tr[data-type='" + CHARGE + "']")).contains(CHARGE);
			assertThat(this.browser.all("#type-limit-add, [data-act='type-limit']")).isEmpty();
			this.browser.screenshot("read-only-type-limits");
			Object status = this.browser.driver().executeAsyncScript("""
					const done = arguments[arguments.length - 1];
					fetch(arguments[0], { method: 'PUT', headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({ concurrency: 9 }) }).then((r) => done(r.status), (e) => done(String(e)));
					""", "http://localhost:" + this.port + "/ojs/v1/admin/limits/types/" + CHARGE);
			assertThat(status).isEqualTo(403L);
			this.browser.assertNoSevereLogsExcept((message) -> message.contains("403"));
			assertThat(this.typeLimits.limit(CHARGE)).isEqualTo(new TypeLimit(2, null));
		}
		finally {
			this.typeLimits.set(CHARGE, null, null);
		}
	}

	@Test
	void hidesArgumentsWhenShowArgsIsOff() {
		this.browser.go("jobs/" + this.sent);
		assertThat(this.browser.text("#job-args")).contains("Hidden");
		assertThat(this.browser.text("#timeline")).contains("Completed");
		assertThat(this.browser.driver().getPageSource()).doesNotContain("secret.person@example.com");
		this.browser.screenshot("read-only-job");
	}

}
