package dev.ojs.web.dashboard;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.sun.net.httpserver.HttpServer;
import dev.ojs.web.OjsPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cross-site request forgery against the riskiest local set-up, attempted by a real browser:
 * the HTTP binding and the writable dashboard both let loopback clients in without a token
 * ({@code ojs.http.allow-unauthenticated-loopback}, {@code ojs.dashboard.allow-unauthenticated-loopback},
 * {@code ojs.dashboard.read-only=false}), so any page the developer opens could aim writes at
 * them. An attacker page served from another origin ({@code http://127.0.0.1:<other port>}, by
 * the JDK's HTTP server) makes headless Chromium send every write a page can send without a
 * CORS grant: {@code no-cors} fetches with {@code text/plain} and with no Content-Type at all,
 * a beacon, a {@code text/plain} form whose field forms a JSON body, empty form and fetch POSTs
 * to the binding's and the Admin API's queue pause, and a JSON fetch that needs a preflight;
 * each at the application as {@code localhost} (a cross-site request) and as {@code 127.0.0.1}
 * (same-site, other port), at the canonical path and at encoded spellings
 * ({@code /%6Fjs/...}, {@code /ojs;x=1/...}, {@code /OJS/...}, {@code /.;/ojs/...}, {@code //ojs/...}).
 * <p>
 * It proves, from a filter in front of every other that records what the server answered,
 * that every such write reached the server and was refused there ({@code 403} by the
 * cross-origin check, {@code 400} for a non-canonical path), that the preflight was not
 * granted so the JSON write was never sent, and, from the database, that no job was enqueued
 * and no queue paused. A last test sends the same writes as a program would (no browser
 * headers) and sees them succeed, so the refusals are the cross-origin check's doing and the
 * database checks can fail.
 */
@SpringBootTest(classes = { DashboardTestApplication.class, CrossOriginBrowserTests.RequestLog.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.allow-unauthenticated-loopback=true",
				"ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true",
				"ojs.dashboard.read-only=false", "ojs.worker.poll-interval=50ms" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrossOriginBrowserTests {

	private static final String TABLE_PREFIX = "csrf_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final String EVIL = "evil.job";

	private static final String JOB_BODY = "{\"type\":\"" + EVIL + "\",\"args\":[]}";

	/** Writes a page may send to another origin without asking it first; each reaches the server. */
	private static final List<String> JOB_WRITES = List.of("fetch-text", "fetch-no-type", "beacon", "form-text");

	private static final List<String> PAUSE_WRITES = List.of("form-empty", "fetch-empty");

	/** Needs a CORS preflight, which is not granted: never sent. */
	private static final String PREFLIGHTED = "fetch-json";

	private static final List<String> SPELLINGS = List.of("/ojs", "/%6Fjs", "/ojs;x=1", "/OJS", "/.;/ojs", "//ojs");

	@LocalServerPort
	private int port;

	@Autowired
	private DataSource dataSource;

	@Autowired
	private RequestLog log;

	private JdbcTemplate jdbc;

	private HttpServer attacker;

	private Browser browser;

	private final List<Attack> attacks = new ArrayList<>();

	@DynamicPropertySource
	static void tablePrefix(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@BeforeAll
	void serveAttackerPageAndOpenBrowser() throws IOException {
		this.jdbc = new JdbcTemplate(this.dataSource);
		for (String origin : List.of("http://localhost:" + this.port, "http://127.0.0.1:" + this.port)) {
			for (String spelling : SPELLINGS) {
				for (String kind : JOB_WRITES) {
					add(kind, origin, spelling + "/v1/jobs");
				}
				add(PREFLIGHTED, origin, spelling + "/v1/jobs");
				for (String kind : PAUSE_WRITES) {
					add(kind, origin, spelling + "/v1/queues/default/pause");
					add(kind, origin, spelling + "/v1/admin/queues/default/pause");
				}
			}
		}
		byte[] page = attackerPage().getBytes(StandardCharsets.UTF_8);
		this.attacker = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.attacker.createContext("/", (exchange) -> {
			boolean root = exchange.getRequestURI().getPath().equals("/");
			exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
			exchange.sendResponseHeaders(root ? 200 : 404, root ? page.length : -1);
			try (OutputStream body = exchange.getResponseBody()) {
				if (root) {
					body.write(page);
				}
			}
		});
		this.attacker.start();
		this.browser = Browser.open("http://localhost:" + this.port + "/ojs/");
	}

	@AfterAll
	void close() throws IOException {
		if (this.browser != null) {
			this.browser.close();
		}
		if (this.attacker != null) {
			this.attacker.stop(0);
		}
	}

	@Test
	@Order(1)
	void refusesEveryWriteAnotherOriginsPageSends() throws IOException {
		String attackerOrigin = "http://127.0.0.1:" + this.attacker.getAddress().getPort();
		this.browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(1440, 2320));
		this.browser.visit(attackerOrigin + "/");
		this.browser.waitUntil((d) -> "true".equals(d.executeScript("return document.body.dataset.done")));
		// a beacon is sent after the page moved on: wait until the server has seen every write
		Set<String> sent = this.attacks.stream().filter((a) -> !a.kind().equals(PREFLIGHTED)).map(Attack::id).collect(Collectors.toSet());
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.log.ids("POST")).containsAll(sent));
		Set<String> preflighted = this.attacks.stream().filter((a) -> a.kind().equals(PREFLIGHTED)).map(Attack::id).collect(Collectors.toSet());
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.log.ids("OPTIONS")).containsAll(preflighted));

		this.browser.script("""
				for (const [id, status] of Object.entries(arguments[0])) {
				  const cell = document.querySelector(`tr[data-id='${id}'] .server`);
				  cell.textContent = status;
				  cell.className = 'server ' + (/^(400|403)$/.test(status) ? 'refused' : /^preflight .*not granted$/.test(status) ? 'unsent' : 'accepted');
				}""", this.log.summary());
		this.browser.screenshot("cross-origin-attacker-page");
		writeExchanges();

		assertThat(count("SELECT COUNT(*) FROM " + TABLE_PREFIX + "jobs WHERE type = ?", EVIL)).as("jobs of type " + EVIL).isZero();
		assertThat(count("SELECT COUNT(*) FROM " + TABLE_PREFIX + "queues WHERE paused = TRUE")).as("paused queues").isZero();

		List<Exchange> posts = this.log.exchanges().stream().filter((e) -> e.id() != null && e.method().equals("POST")).toList();
		assertThat(posts).hasSizeGreaterThanOrEqualTo(sent.size()).allSatisfy((post) -> {
			assertThat(post.secFetchSite()).as("Sec-Fetch-Site of %s", post).isIn("cross-site", "same-site");
			if (post.uri().startsWith("/ojs/v1/") && OjsPaths.isCanonical(post.uri())) {
				assertThat(post.status()).as("status of %s", post).isEqualTo(403);
				assertThat(post.body()).as("error body of %s", post).contains("Cross-origin writes are refused");
			}
			else {
				assertThat(post.status()).as("status of %s", post).isEqualTo(400);
				assertThat(post.body()).as("error body of %s", post).contains("not in canonical form");
			}
		});
		assertThat(posts).extracting(Exchange::uri)
			.as("every spelling reached the server as the page spelled it")
			.anyMatch((uri) -> uri.startsWith("/%6Fjs/"))
			.anyMatch((uri) -> uri.startsWith("/ojs;x=1/"))
			.anyMatch((uri) -> uri.startsWith("/OJS/"))
			.anyMatch((uri) -> uri.startsWith("/.;/ojs/"))
			.anyMatch((uri) -> uri.startsWith("//ojs/"));
		assertThat(posts).extracting(Exchange::secFetchSite).as("both a cross-site and a same-site page were tried").contains("cross-site", "same-site");
		assertThat(posts).filteredOn((post) -> post.uri().startsWith("/ojs/v1/"))
			.extracting(Exchange::contentType)
			.as("canonical writes with every content type a page can send without a preflight")
			.contains("text/plain", "text/plain;charset=UTF-8", null, "application/x-www-form-urlencoded");
		assertThat(this.log.exchanges()).filteredOn((e) -> preflighted.contains(e.id()))
			.as("the JSON write's preflight is not granted, so the write itself is never sent")
			.allSatisfy((e) -> {
				assertThat(e.method()).isEqualTo("OPTIONS");
				assertThat(e.allowOrigin()).isNull();
			});
		@SuppressWarnings("unchecked")
		Map<String, String> page = (Map<String, String>) this.browser.script("return window.results");
		assertThat(this.attacks).filteredOn((a) -> a.kind().equals(PREFLIGHTED))
			.allSatisfy((a) -> assertThat(page.get(a.id())).as("what the page saw of %s", a).startsWith("TypeError"));
	}

	@Test
	@Order(2)
	void acceptsTheSameWritesFromAProgram() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		String base = "http://localhost:" + this.port + "/ojs/v1";
		HttpResponse<String> enqueued = client.send(HttpRequest.newBuilder(URI.create(base + "/jobs"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(JOB_BODY))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(enqueued.statusCode()).as(enqueued.body()).isEqualTo(201);
		assertThat(count("SELECT COUNT(*) FROM " + TABLE_PREFIX + "jobs WHERE type = ?", EVIL)).isEqualTo(1);
		HttpResponse<String> paused = client.send(HttpRequest.newBuilder(URI.create(base + "/admin/queues/default/pause"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
		assertThat(count("SELECT COUNT(*) FROM " + TABLE_PREFIX + "queues WHERE paused = TRUE AND name = 'default'")).isEqualTo(1);
	}

	/** Keeps what the server saw and answered as {@code target/screenshots/cross-origin-exchanges.txt}. */
	private void writeExchanges() throws IOException {
		java.nio.file.Files.createDirectories(Browser.SCREENSHOTS);
		java.nio.file.Files.write(Browser.SCREENSHOTS.resolve("cross-origin-exchanges.txt"),
				this.log.exchanges().stream().filter((e) -> e.id() != null).map(Exchange::toString).toList());
	}

	private void add(String kind, String origin, String path) {
		String id = "a" + this.attacks.size();
		this.attacks.add(new Attack(id, kind, origin, path, origin + path + "?attack=" + id));
	}

	private int count(String sql, Object... args) {
		Integer count = this.jdbc.queryForObject(sql, Integer.class, args);
		return count == null ? 0 : count;
	}

	/** The attacker's page: sends every attack once loaded, then sets {@code body[data-done]}. */
	private String attackerPage() {
		String attacks = JsonMapper.builder().build().writeValueAsString(this.attacks);
		return """
				<!doctype html><html><head><meta charset="utf-8"><title>Totally harmless page</title>
				<style>
				body { font: 12px/1.35 system-ui, sans-serif; margin: 12px; color: #222; }
				h1 { font-size: 18px; margin: 0 0 8px; }
				.cols { display: flex; gap: 16px; align-items: flex-start; }
				table { border-collapse: collapse; }
				td, th { padding: 1px 6px; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
				.refused { color: #0a7a2f; font-weight: 600; } .unsent { color: #555; } .accepted { color: #c00; font-weight: 700; }
				.frames { display: grid; grid-template-columns: repeat(2, 230px); gap: 6px; }
				.frames div { font-size: 10px; } iframe { width: 226px; height: 62px; border: 1px solid #999; }
				</style></head><body>
				<h1>Cross-origin writes at the OJS application (page origin: <span id="origin"></span>)</h1>
				<div class="cols"><table><thead><tr><th>id</th><th>kind</th><th>target</th><th>path</th><th>page saw</th><th>server answered</th></tr></thead>
				<tbody id="rows"></tbody></table><div class="frames" id="frames"></div></div>
				<script>
				const attacks = %s;
				const body = '%s';
				window.results = {};
				document.getElementById('origin').textContent = location.origin;
				const rows = document.getElementById('rows');
				for (const a of attacks) {
				  const tr = document.createElement('tr'); tr.dataset.id = a.id;
				  for (const v of [a.id, a.kind, a.origin.replace('http://', ''), a.path, '…', '…']) { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); }
				  tr.children[4].className = 'page'; tr.children[5].className = 'server';
				  rows.appendChild(tr);
				}
				const show = (a, text) => { window.results[a.id] = text; document.querySelector(`tr[data-id='${a.id}'] .page`).textContent = text; };
				const settle = (a, promise) => promise.then((r) => show(a, r.type + ' ' + r.status), (e) => show(a, String(e)));
				function form(a, enctype, fields) {
				  return new Promise((resolve) => {
				    const holder = document.createElement('div'); holder.textContent = a.id + ' ' + a.kind;
				    const frame = document.createElement('iframe'); frame.name = 'f-' + a.id;
				    holder.appendChild(frame); document.getElementById('frames').appendChild(holder);
				    const f = document.createElement('form');
				    f.method = 'POST'; f.action = a.url; f.target = frame.name; f.enctype = enctype;
				    for (const [name, value] of fields) { const i = document.createElement('input'); i.type = 'hidden'; i.name = name; i.value = value; f.appendChild(i); }
				    document.body.appendChild(f);
				    frame.addEventListener('load', () => { show(a, 'form sent'); resolve(); }, { once: true });
				    f.submit();
				  });
				}
				const run = {
				  'fetch-text': (a) => settle(a, fetch(a.url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body })),
				  'fetch-no-type': (a) => settle(a, fetch(a.url, { method: 'POST', mode: 'no-cors', body: new Blob([body]) })),
				  'beacon': async (a) => show(a, 'beacon queued: ' + navigator.sendBeacon(a.url, body)),
				  // name + '=' + value reads as {"type":"evil.job","args":[],"pad":"="}
				  'form-text': (a) => form(a, 'text/plain', [[body.slice(0, -1) + ',"pad":"', '"}']]),
				  'form-empty': (a) => form(a, 'application/x-www-form-urlencoded', []),
				  'fetch-empty': (a) => settle(a, fetch(a.url, { method: 'POST', mode: 'no-cors' })),
				  'fetch-json': (a) => settle(a, fetch(a.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })),
				};
				Promise.allSettled(attacks.map((a) => run[a.kind](a))).then(() => { document.body.dataset.done = 'true'; });
				</script></body></html>
				""".formatted(attacks, JOB_BODY);
	}

	/** One write the attacker's page sends; {@code url} carries {@code ?attack=<id>}. */
	record Attack(String id, String kind, String origin, String path, String url) {
	}

	/** What the server saw and answered, recorded ahead of every other filter. */
	record Exchange(String id, String method, String uri, String secFetchSite, String contentType, int status,
			String allowOrigin, String body) {
	}

	/** Records every request's method, path, Fetch Metadata and the status the server answered. */
	@Configuration(proxyBeanMethods = false)
	static class RequestLog {

		private final ConcurrentLinkedQueue<Exchange> exchanges = new ConcurrentLinkedQueue<>();

		@Bean
		FilterRegistrationBean<OncePerRequestFilter> requestRecorder() {
			FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
				@Override
				protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
						throws ServletException, IOException {
					org.springframework.web.util.ContentCachingResponseWrapper wrapper = new org.springframework.web.util.ContentCachingResponseWrapper(response);
					int status = 500;
					try {
						chain.doFilter(request, wrapper);
						status = wrapper.getStatus();
					}
					finally {
						String body = new String(wrapper.getContentAsByteArray(), StandardCharsets.UTF_8);
						wrapper.copyBodyToResponse();
						RequestLog.this.exchanges.add(new Exchange(queryId(request),
								request.getMethod(), request.getRequestURI(), request.getHeader("Sec-Fetch-Site"),
								request.getContentType(), status, wrapper.getHeader("Access-Control-Allow-Origin"),
								body.length() > 500 ? body.substring(0, 500) : body));
					}
				}
			});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

		/** The attack id from the query string, read without touching the request body. */
		private static String queryId(HttpServletRequest request) {
			String query = request.getQueryString();
			if (query == null) {
				return null;
			}
			for (String pair : query.split("&")) {
				if (pair.startsWith("attack=")) {
					return pair.substring("attack=".length());
				}
			}
			return null;
		}

		List<Exchange> exchanges() {
			return List.copyOf(this.exchanges);
		}

		Set<String> ids(String method) {
			return this.exchanges.stream().filter((e) -> e.id() != null && e.method().equals(method)).map(Exchange::id)
				.collect(Collectors.toSet());
		}

		/**
		 * Per attack id, what the server answered: {@code "403"} to a write, or
		 * {@code "preflight 200, not granted"} to a preflight without a CORS grant.
		 */
		Map<String, String> summary() {
			return this.exchanges.stream().filter((e) -> e.id() != null)
				.collect(Collectors.groupingBy(Exchange::id, Collectors.mapping(CrossOriginBrowserTests.RequestLog::describe,
						Collectors.joining(", "))));
		}

		private static String describe(Exchange exchange) {
			if (exchange.method().equals("OPTIONS")) {
				return "preflight " + exchange.status() + ((exchange.allowOrigin() != null) ? ", granted" : ", not granted");
			}
			return (exchange.method().equals("POST") ? "" : exchange.method() + " ") + exchange.status();
		}

	}

}
