package dev.ojs.web.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import dev.ojs.spring.OjsTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.WindowType;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.ojs.web.dashboard.DashboardTestApplication.CHARGE;
import static dev.ojs.web.dashboard.DashboardTestApplication.EMAILS;
import static dev.ojs.web.dashboard.DashboardTestApplication.SEND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard when its Admin API wants a bearer token ({@code ojs.dashboard.token}, no
 * loopback opt-in), in headless Chromium: the page shows nothing but a token dialog (laid out
 * inside the window) until it has a token the API accepts; a wrong token is refused and asked
 * for again ("That token was refused"); the right one loads the overview with its figures and
 * the navigation's counts, is kept for the tab (a reload does not ask again, another tab does)
 * and is sent with writes, so pausing and resuming a queue from the Queues page works.
 * Screenshots of the dialog, the refusal and the overview go to {@code target/screenshots}.
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false", "ojs.worker.poll-interval=50ms" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardTokenBrowserTests {

	private static final String TABLE_PREFIX = "tok_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	private static final String TOKEN = UUID.randomUUID().toString();

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@LocalServerPort
	private int port;

	@Autowired
	private OjsTemplate ojs;

	@Autowired
	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private Browser browser;

	private String dashboard;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
		registry.add("ojs.dashboard.token", () -> TOKEN);
	}

	@BeforeAll
	void seedAndOpenBrowser() throws IOException {
		this.jdbc = new JdbcTemplate(this.dataSource);
		for (int i = 0; i < 3; i++) {
			this.ojs.enqueue(SEND, "customer" + i + "@example.com");
		}
		for (int i = 0; i < 2; i++) {
			this.ojs.enqueue(CHARGE, "cus_" + (500 + i));
		}
		await().atMost(TIMEOUT).until(() -> count("dead_letter = TRUE") == 2 && count("state = 'completed'") == 3);
		this.dashboard = "http://localhost:" + this.port + "/ojs/";
		this.browser = Browser.open(this.dashboard);
	}

	@AfterAll
	void closeBrowser() throws IOException {
		if (this.browser != null) {
			this.browser.close();
		}
	}

	@AfterEach
	void noSevereConsoleEntries() {
		// Chromium logs every 401 the page's script asked for; anything else fails the test
		this.browser.assertNoSevereLogsExcept((message) -> message.contains("status of 401"));
	}

	@Test
	@Order(1)
	void asksForTheTokenBeforeShowingAnything() {
		this.browser.visit(this.dashboard + "#/overview");
		this.browser.find("#token-form #token-input");
		assertThat(this.browser.text("#modal")).contains("Admin API token", "ojs.dashboard.token")
			.doesNotContain("refused");
		assertThat(this.browser.script("return document.activeElement.id")).as("focused").isEqualTo("token-input");
		assertThat(this.browser.script("return document.body.dataset.ready")).as("page ready").isNull();
		assertThat(this.browser.script("return sessionStorage.getItem('ojs.token')")).isNull();
		assertDialogLaidOut();
		this.browser.screenshot("token-dialog");
	}

	@Test
	@Order(2)
	void refusesAWrongTokenAndAsksAgain() {
		signIn("not-" + TOKEN);
		this.browser.waitUntil("the dialog to ask again (banner: %s)",
				(d) -> this.browser.all("#token-form").size() == 1 && this.browser.text("#modal").contains("That token was refused"));
		assertThat(this.browser.script("return document.body.dataset.ready")).as("page ready").isNull();
		assertThat(this.browser.script("return document.querySelector('#token-input').value")).as("input cleared").isEqualTo("");
		assertDialogLaidOut();
		this.browser.screenshot("token-refused");
	}

	@Test
	@Order(3)
	void loadsTheOverviewWithTheRightToken() {
		signIn(TOKEN);
		this.browser.waitForContent();
		assertThat(this.browser.all("#token-form")).isEmpty();
		assertThat((Boolean) this.browser.script("return document.querySelector('#modal').classList.contains('hidden')")).isTrue();
		assertThat(this.browser.text("[data-kpi='Dead letters']")).isEqualTo("2");
		assertThat(this.browser.text("#nav-dead")).isEqualTo("2");
		assertThat(this.browser.text("#nav-queues")).isNotBlank();
		assertThat(this.browser.script("return sessionStorage.getItem('ojs.token')")).isEqualTo(TOKEN);
		assertThat(this.browser.script("return localStorage.getItem('ojs.token')")).as("never kept beyond the tab").isNull();
		this.browser.screenshot("token-overview");
	}

	@Test
	@Order(4)
	void keepsTheTokenForTheTabOnly() {
		this.browser.driver().navigate().refresh();
		this.browser.waitForContent();
		assertThat(this.browser.all("#token-form")).as("asked again after a reload").isEmpty();
		assertThat(this.browser.text("#nav-dead")).isEqualTo("2");
		String tab = this.browser.driver().getWindowHandle();
		this.browser.driver().switchTo().newWindow(WindowType.TAB);
		try {
			this.browser.visit(this.dashboard + "#/overview");
			this.browser.find("#token-form #token-input");
			assertThat(this.browser.script("return sessionStorage.getItem('ojs.token')")).isNull();
		}
		finally {
			this.browser.driver().close();
			this.browser.driver().switchTo().window(tab);
		}
	}

	@Test
	@Order(5)
	void pausesAndResumesAQueueWithTheToken() {
		this.browser.go("queues");
		this.browser.click("[data-act='queue'][data-op='pause'][data-name='" + EMAILS + "']");
		this.browser.waitUntil("the queue to show as paused (banner: %s)",
				(d) -> !this.browser.all("[data-act='queue'][data-op='resume'][data-name='" + EMAILS + "']").isEmpty());
		assertThat(paused(EMAILS)).isTrue();
		this.browser.screenshot("token-queues-paused");
		this.browser.click("[data-act='queue'][data-op='resume'][data-name='" + EMAILS + "']");
		this.browser.waitUntil("the queue to show as active (banner: %s)",
				(d) -> !this.browser.all("[data-act='queue'][data-op='pause'][data-name='" + EMAILS + "']").isEmpty());
		assertThat(paused(EMAILS)).isFalse();
		assertThat(this.browser.all("#token-form")).isEmpty();
	}

	private void signIn(String token) {
		this.browser.find("#token-form #token-input").sendKeys(token);
		this.browser.click("#token-submit");
	}

	/** The dialog is styled as a modal: fixed over the page, centred, and its input fits in it. */
	@SuppressWarnings("unchecked")
	private void assertDialogLaidOut() {
		Map<String, Object> layout = (Map<String, Object>) this.browser.script("""
				const modal = document.querySelector('#modal'), dialog = modal.querySelector('.dialog');
				const input = dialog.querySelector('#token-input'), button = dialog.querySelector('#token-submit');
				const r = (e) => e.getBoundingClientRect();
				return { position: getComputedStyle(modal).position, width: innerWidth, height: innerHeight,
				  dialog: [r(dialog).left, r(dialog).top, r(dialog).right, r(dialog).bottom],
				  input: [r(input).left, r(input).right, r(input).height], button: [r(button).right, r(button).bottom],
				  overflow: dialog.scrollWidth > dialog.clientWidth };""");
		assertThat(layout.get("position")).isEqualTo("fixed");
		assertThat(layout.get("overflow")).isEqualTo(false);
		List<Number> dialog = (List<Number>) layout.get("dialog");
		List<Number> input = (List<Number>) layout.get("input");
		List<Number> button = (List<Number>) layout.get("button");
		double width = ((Number) layout.get("width")).doubleValue();
		double height = ((Number) layout.get("height")).doubleValue();
		assertThat(dialog.get(0).doubleValue()).as("dialog left").isPositive();
		assertThat(dialog.get(2).doubleValue()).as("dialog right").isLessThan(width);
		assertThat(dialog.get(1).doubleValue()).as("dialog top").isPositive();
		assertThat(dialog.get(3).doubleValue()).as("dialog bottom").isLessThan(height);
		assertThat(Math.abs((dialog.get(0).doubleValue() + dialog.get(2).doubleValue()) - width)).as("centred").isLessThan(4);
		assertThat(input.get(0).doubleValue()).as("input left").isGreaterThan(dialog.get(0).doubleValue());
		assertThat(input.get(1).doubleValue()).as("input right").isLessThan(dialog.get(2).doubleValue());
		assertThat(input.get(2).doubleValue()).as("input height").isGreaterThan(20);
		assertThat(button.get(0).doubleValue()).as("button right").isLessThanOrEqualTo(dialog.get(2).doubleValue());
		assertThat(button.get(1).doubleValue()).as("button bottom").isLessThanOrEqualTo(dialog.get(3).doubleValue());
	}

	private int count(String where) {
		Integer count = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE_PREFIX + "jobs WHERE " + where, Integer.class);
		return count == null ? 0 : count;
	}

	private boolean paused(String queue) {
		List<Boolean> paused = this.jdbc.queryForList("SELECT paused FROM " + TABLE_PREFIX + "queues WHERE name = ?",
				Boolean.class, queue);
		return !paused.isEmpty() && paused.get(0);
	}

}
