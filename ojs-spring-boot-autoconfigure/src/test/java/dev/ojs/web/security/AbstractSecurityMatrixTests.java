package dev.ojs.web.security;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.job.JobStore;
import dev.ojs.job.QueueState;
import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.testsupport.TestDatabases;
import dev.ojs.web.security.SecurityMatrix.Answer;
import dev.ojs.web.security.SecurityMatrix.Cell;
import dev.ojs.web.security.SecurityMatrix.Endpoint;
import dev.ojs.web.security.SecurityMatrix.Host;
import dev.ojs.web.security.SecurityMatrix.Mode;
import dev.ojs.web.security.SecurityMatrix.Origin;
import dev.ojs.web.security.SecurityMatrix.Principal;
import dev.ojs.web.security.SecurityMatrix.Spelling;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the {@link SecurityMatrix} against one running application (one Spring context per
 * mode): every endpoint with every principal; every spelling, origin and {@code Host} with the
 * principals that matter most. Each cell is a dynamic test named after what it sends and what
 * {@link SecurityMatrix#expect} says it must get, and checks, besides the status:
 * <ul>
 * <li>refusals (400/401/403/404/405) of the OJS surfaces carry the binding's error body with
 * the expected {@code error.code}, and 401 a {@code WWW-Authenticate} challenge;</li>
 * <li>an anonymous request gets no session cookie;</li>
 * <li>a request that must not succeed changes nothing: no job created, no queue paused, no
 * recurring job registered.</li>
 * </ul>
 */
abstract class AbstractSecurityMatrixTests {

	@LocalServerPort
	int port;

	@Autowired
	OjsTemplate ojs;

	@Autowired
	JobStore jobStore;

	@Autowired
	OjsRecurringJobs recurringJobs;

	@Autowired
	DataSource dataSource;

	@Value("${ojs.jdbc.table-prefix}")
	String tablePrefix;

	private final AtomicInteger cellNumber = new AtomicInteger();

	private final Map<Principal, Map<String, String>> sessions = new LinkedHashMap<>();

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	/** The mode this context runs in. */
	abstract Mode mode();

	@TestFactory
	Stream<DynamicTest> securityMatrix() {
		Mode mode = mode();
		RawHttp http = new RawHttp(this.port);
		String jobId = this.ojs.enqueue("matrix.fixture", List.of(), JobOptions.builder().queue("matrix-fixture").build());
		String cancelledId = this.ojs.enqueue("matrix.fixture", List.of(),
				JobOptions.builder().queue("matrix-fixture").build());
		assertThat(this.ojs.cancel(cancelledId)).isTrue();
		if (mode.springSecurity() && mode.dashboard()) {
			this.sessions.put(Principal.ADMIN_CSRF, session(http, Principal.ADMIN_CSRF));
			this.sessions.put(Principal.VIEWER_CSRF, session(http, Principal.VIEWER_CSRF));
		}
		List<Cell> cells = new ArrayList<>();
		for (Endpoint endpoint : SecurityMatrix.endpoints(mode, jobId, cancelledId)) {
			for (Principal principal : mode.principals()) {
				cells.add(cell(endpoint, Spelling.CANONICAL, principal, Origin.NONE, Host.OWN));
			}
			for (Principal principal : mode.strongPrincipals()) {
				for (Spelling spelling : Spelling.of(endpoint.path())) {
					cells.add(cell(endpoint, spelling, principal, Origin.NONE, Host.OWN));
				}
				for (Origin origin : Origin.values()) {
					// the origin rules are about writes; reads are checked with one principal
					if (origin != Origin.NONE && (endpoint.write() || principal != Principal.NONE)) {
						cells.add(cell(endpoint, Spelling.CANONICAL, principal, origin, Host.OWN));
					}
				}
				for (Host host : List.of(Host.LOCALHOST, Host.FOREIGN)) {
					cells.add(cell(endpoint, Spelling.CANONICAL, principal, Origin.NONE, host));
				}
			}
		}
		return cells.stream()
			.map((cell) -> DynamicTest.dynamicTest(name(mode, cell), () -> check(http, mode, cell)));
	}

	private Cell cell(Endpoint endpoint, Spelling spelling, Principal principal, Origin origin, Host host) {
		String n = String.valueOf(this.cellNumber.incrementAndGet());
		Endpoint numbered = new Endpoint(endpoint.method(), endpoint.path().replace("{n}", n),
				(endpoint.body() != null) ? endpoint.body().replace("{n}", n) : null, endpoint.handled());
		return new Cell(numbered, spelling, principal, origin, host);
	}

	private static String name(Mode mode, Cell cell) {
		return "mode=" + mode.name() + " " + cell.endpoint().method() + " " + mode.contextPath() + cell.path()
				+ " principal=" + cell.principal().label() + " origin=" + cell.origin().label() + " host="
				+ cell.host().label() + " \u2192 " + SecurityMatrix.expect(mode, cell);
	}

	private void check(RawHttp http, Mode mode, Cell cell) {
		Answer expected = SecurityMatrix.expect(mode, cell);
		List<Object> before = sideEffects();
		RawHttp.Response response = http.send(cell.endpoint().method(), mode.contextPath() + cell.path(),
				headers(cell), cell.endpoint().body(), this::publishAnEvent);
		followSessionId(cell.principal(), response);
		String seen = response.status() + " " + response.body();
		assertThat(response.status()).as("status of %s", seen).isEqualTo(expected.status());
		if (expected.code() != null) {
			assertThat(response.errorCode()).as("error.code of %s", seen).isEqualTo(expected.code());
			assertThat(response.json().path("error").path("request_id").isString()).as("request_id of %s", seen)
				.isTrue();
		}
		if (response.status() == 401) {
			assertThat(response.header("WWW-Authenticate")).as("challenge").isNotNull();
		}
		if (cell.principal().anonymous()) {
			assertThat(response.headers("Set-Cookie")).as("session cookies of an anonymous request")
				.noneMatch((cookie) -> cookie.toUpperCase().startsWith("JSESSIONID"));
		}
		if (!expected.success()) {
			assertThat(sideEffects()).as("jobs, paused queues and schedules after " + seen).isEqualTo(before);
		}
	}

	/** A session user keeps its session when the server gives it a new id. */
	private void followSessionId(Principal principal, RawHttp.Response response) {
		Map<String, String> session = this.sessions.get(principal);
		response.headers("Set-Cookie").stream().filter((cookie) -> cookie.startsWith("JSESSIONID=")).findFirst()
			.filter((cookie) -> session != null)
			.ifPresent((cookie) -> {
				Map<String, String> renewed = new LinkedHashMap<>(session);
				renewed.put("Cookie", cookie.split(";")[0]);
				this.sessions.put(principal, renewed);
			});
	}

	/** An event makes an event stream send its headers. */
	private void publishAnEvent() {
		this.ojs.enqueue("matrix.event", List.of(), JobOptions.builder().queue("matrix-events").build());
	}

	private Map<String, String> headers(Cell cell) {
		Map<String, String> headers = new LinkedHashMap<>();
		String host = cell.host().name + ":" + this.port;
		headers.put("Host", host);
		Principal principal = cell.principal();
		if (principal.bearer != null) {
			headers.put("Authorization", principal.bearer);
		}
		else if (principal.role != null || principal == Principal.WRONG_PASSWORD) {
			headers.put("Authorization", basic(principal.user(),
					(principal == Principal.WRONG_PASSWORD) ? "wrong" : SecurityMatrix.PASSWORD));
		}
		headers.putAll(this.sessions.getOrDefault(principal, Map.of()));
		if (cell.origin().secFetchSite != null) {
			headers.put("Sec-Fetch-Site", cell.origin().secFetchSite);
		}
		if (cell.origin().origin != null) {
			headers.put("Origin", cell.origin().origin.equals("self") ? "http://" + host
					: cell.origin().origin.startsWith("http://other") ? cell.origin().origin + ":" + this.port
							: cell.origin().origin);
		}
		return headers;
	}

	/** The session cookie and CSRF header of a Basic user, as the dashboard gets them from {@code system/config}. */
	private Map<String, String> session(RawHttp http, Principal principal) {
		RawHttp.Response config = http.send("GET", mode().contextPath() + "/ojs/v1/admin/system/config",
				Map.of("Authorization", basic(principal.user(), SecurityMatrix.PASSWORD)), null);
		assertThat(config.status()).as(config.body()).isEqualTo(200);
		String cookie = config.headers("Set-Cookie")
			.stream()
			.filter((value) -> value.startsWith("JSESSIONID="))
			.map((value) -> value.split(";")[0])
			.findFirst()
			.orElseThrow();
		JsonNode csrf = config.json().path("csrf");
		return Map.of("Cookie", cookie, csrf.path("header_name").stringValue(), csrf.path("token").stringValue());
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * What a refused request must not change: the number of jobs in the queue the cells enqueue
	 * to (other queues see the worker's own work), the paused queues, the recurring jobs.
	 */
	private List<Object> sideEffects() {
		Long jobs = new JdbcTemplate(this.dataSource)
			.queryForObject("select count(*) from " + this.tablePrefix + "jobs where queue = 'matrix'", Long.class);
		TreeSet<String> paused = new TreeSet<>(
				this.jobStore.queueStates().stream().filter(QueueState::paused).map(QueueState::name).toList());
		TreeSet<String> recurringJobs = new TreeSet<>(this.recurringJobs.list().stream().map((s) -> s.name()).toList());
		return List.of(jobs, paused, recurringJobs);
	}

}
