package dev.ojs.web.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's headless Chromium driven by its chromedriver, with a fresh profile: opens dashboard
 * routes, waits for them to render, saves screenshots and fails on any severe console entry.
 */
final class Browser implements AutoCloseable {

	static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	static final Path SCREENSHOTS = Path.of("target", "screenshots");

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final ChromeDriver driver;

	private final Path profile;

	private final String dashboard;

	private Browser(String dashboard) throws IOException {
		this.dashboard = dashboard;
		this.profile = Files.createTempDirectory("ojs-chromium-");
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
			.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--no-first-run", "--window-size=1440,1000", "--hide-scrollbars",
					"--user-data-dir=" + this.profile);
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		options.setCapability("goog:loggingPrefs", logs);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		this.driver = new ChromeDriver(service, options);
	}

	/**
	 * Starts a browser on the dashboard at the given URL. Skips the test when Chromium is
	 * missing, but fails it with {@code CI=true}.
	 * @param dashboard the dashboard's URL, ending with a slash
	 * @return the browser
	 */
	static Browser open(String dashboard) throws IOException {
		boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		if (!installed && "true".equals(System.getenv("CI"))) {
			fail("CI=true but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing (apt-get install chromium chromium-driver)");
		}
		assumeTrue(installed, "Chromium and chromedriver are not installed");
		return new Browser(dashboard);
	}

	ChromeDriver driver() {
		return this.driver;
	}

	/** Opens any URL (another origin's page, the dashboard without a route) without waiting for it to render. */
	void visit(String url) {
		this.driver.get(url);
	}

	/** Runs a script in the page and returns its result. */
	Object script(String script, Object... args) {
		return this.driver.executeScript(script, args);
	}

	/**
	 * Opens a route ({@code overview}, {@code jobs?state=...}) and waits until the page has
	 * rendered its content.
	 */
	void go(String route) {
		this.driver.get(this.dashboard + "#/" + route);
		waitForContent();
	}

	void waitForContent() {
		waitUntil("the page to render (banner: " + "%s)", (d) -> Boolean.TRUE.equals(d.executeScript("return document.body.dataset.ready === 'true'"
				+ " && document.body.dataset.rendered === location.hash && !document.querySelector('#content .loading')")));
	}

	WebElement find(String css) {
		return new WebDriverWait(this.driver, TIMEOUT).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
	}

	/**
	 * The rendered text of the first element matching, read in one script call: the page
	 * re-renders itself every few seconds, which would make a found element stale.
	 */
	String text(String css) {
		return new WebDriverWait(this.driver, TIMEOUT).until((d) -> (String) this.driver
			.executeScript("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css));
	}

	/** The rendered texts of every element matching, read in one script call. */
	@SuppressWarnings("unchecked")
	List<String> texts(String css) {
		return (List<String>) this.driver.executeScript(
				"return Array.from(document.querySelectorAll(arguments[0])).map((e) => e.innerText);", css);
	}

	/** Clicks the first element matching, finding it again if the page re-rendered meanwhile. */
	void click(String css) {
		new WebDriverWait(this.driver, TIMEOUT).ignoring(StaleElementReferenceException.class).until((d) -> {
			this.driver.findElement(By.cssSelector(css)).click();
			return true;
		});
	}

	List<WebElement> all(String css) {
		return this.driver.findElements(By.cssSelector(css));
	}

	void waitUntil(java.util.function.Function<ChromeDriver, Boolean> condition) {
		new WebDriverWait(this.driver, TIMEOUT).ignoring(StaleElementReferenceException.class)
			.until((d) -> condition.apply(this.driver));
	}

	/** Waits, failing with the message and the page's error banner (if any) on time-out. */
	void waitUntil(String message, java.util.function.Function<ChromeDriver, Boolean> condition) {
		try {
			waitUntil(condition);
		}
		catch (org.openqa.selenium.TimeoutException ex) {
			throw new AssertionError(message.formatted(this.driver.findElement(By.id("banner")).getText()) + " at "
					+ this.driver.getCurrentUrl(), ex);
		}
	}

	/** Emulates the OS colour scheme ({@code light} or {@code dark}) through the DevTools protocol. */
	void colorScheme(String scheme) {
		this.driver.executeCdpCommand("Emulation.setEmulatedMedia",
				Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
	}

	/** Saves a screenshot as {@code target/screenshots/<name>.png}. */
	Path screenshot(String name) {
		try {
			Files.createDirectories(SCREENSHOTS);
			Path file = SCREENSHOTS.resolve(name + ".png");
			Files.write(file, this.driver.getScreenshotAs(OutputType.BYTES));
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Fails when the page logged a severe entry: a script error or a failed request. */
	void assertNoSevereLogs() {
		assertNoSevereLogsExcept((message) -> false);
	}

	/**
	 * Fails when the page logged a severe entry that is not expected, such as the console entry
	 * Chromium logs for every {@code 401} response a page's script asked for.
	 * @param expected which severe messages are expected
	 */
	void assertNoSevereLogsExcept(java.util.function.Predicate<String> expected) {
		List<LogEntry> severe = this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.filter((entry) -> !expected.test(entry.getMessage()))
			.toList();
		assertThat(severe).as("severe browser console entries").isEmpty();
	}

	@Override
	public void close() throws IOException {
		try {
			this.driver.quit();
		}
		finally {
			try (var files = Files.walk(this.profile)) {
				files.sorted(java.util.Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}

}
