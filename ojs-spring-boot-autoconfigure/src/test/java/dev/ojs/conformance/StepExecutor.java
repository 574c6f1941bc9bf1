package dev.ojs.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.ojs.conformance.ConformanceCase.Step;

/**
 * Runs the steps of a case against a server as the reference runner's {@code runTest} does:
 * setup (a failure ends the case as an error), the steps in order — each after its
 * {@code delay_ms}, the members of a {@code parallel_with} group at the same time — then
 * teardown. Every step runs whatever earlier ones found; the case passes when no assertion
 * failed.
 * <p>
 * Where the reference runner is silent: {@code raw_body} is sent as written (the case's
 * intent: a body that is not JSON); {@code ASSERT} steps make no request and check nothing
 * (the reference runner knows none of their cross-step assertions); {@code captures} are
 * ignored (templates read earlier responses directly).
 * <p>
 * A case whose job carries {@code options.metadata.test_directive} ({@code quiet} or
 * {@code terminate}: L1-WRK-002, L1-WRK-003) expects a "server configured to respond with"
 * that signal. The runner configures it as an operator would: before each heartbeat it
 * signals the heartbeat's worker through the Admin API ({@code POST
 * /ojs/v1/admin/workers/{id}/quiet}); the product reads no test key.
 */
final class StepExecutor {

	static final String MEDIA_TYPE = "application/openjobspec+json";

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.followRedirects(HttpClient.Redirect.NORMAL)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/** Runs the members of a parallel group, one thread each (the common pool may have one thread). */
	private final ExecutorService parallel = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "conformance-parallel-step");
		thread.setDaemon(true);
		return thread;
	});

	private final String baseUrl;

	private final Duration timeout;

	/**
	 * @param baseUrl the server, e.g. {@code http://127.0.0.1:8080}
	 * @param timeout the longest one request may take, its body included
	 */
	StepExecutor(String baseUrl, Duration timeout) {
		this.baseUrl = baseUrl;
		this.timeout = timeout;
	}

	CaseResult run(ConformanceCase testCase) {
		this.directive.remove();
		long start = System.nanoTime();
		Map<String, StepResult> results = new ConcurrentHashMap<>();
		for (Step step : testCase.setup()) {
			List<Failure> failures = new ArrayList<>();
			results.put(step.id(), execute(step, results, failures));
			if (!failures.isEmpty()) {
				return new CaseResult(testCase, CaseResult.Outcome.ERROR,
						List.of(Failure.of(step.id(), "Setup step failed: " + failures.get(0).message())), millis(start));
			}
		}
		List<Failure> failures = executeAll(testCase.steps(), results);
		for (Step step : testCase.teardown()) {
			results.put(step.id(), execute(step, results, new ArrayList<>()));
		}
		this.signalled.forEach((worker) -> adminSignal(worker, "resume"));
		this.signalled.clear();
		return new CaseResult(testCase, failures.isEmpty() ? CaseResult.Outcome.PASSED : CaseResult.Outcome.FAILED,
				failures, millis(start));
	}

	/** The steps in order; the consecutive members of a {@code parallel_with} group together. */
	private List<Failure> executeAll(List<Step> steps, Map<String, StepResult> results) {
		Set<String> grouped = new HashSet<>();
		for (Step step : steps) {
			if (step.parallelWith() != null && !step.parallelWith().isEmpty()) {
				grouped.add(step.id());
				grouped.add(step.parallelWith());
			}
		}
		List<Failure> failures = new ArrayList<>();
		Set<String> executed = new HashSet<>();
		for (int i = 0; i < steps.size(); i++) {
			Step step = steps.get(i);
			if (executed.contains(step.id())) {
				continue;
			}
			List<Step> group = grouped.contains(step.id()) ? group(steps.subList(i, steps.size()), step.id(), grouped)
					: List.of();
			if (group.size() > 1) {
				List<CompletableFuture<List<Failure>>> running = new ArrayList<>();
				for (Step member : group) {
					running.add(CompletableFuture.supplyAsync(() -> {
						List<Failure> found = new ArrayList<>();
						results.put(member.id(), execute(member, results, found));
						return found;
					}, this.parallel));
				}
				running.forEach((future) -> failures.addAll(future.join()));
				group.forEach((member) -> executed.add(member.id()));
				continue;
			}
			results.put(step.id(), execute(step, results, failures));
			executed.add(step.id());
		}
		return failures;
	}

	/** The reference's {@code collectParallelGroup}: consecutive grouped steps from the trigger on. */
	private static List<Step> group(List<Step> steps, String trigger, Set<String> grouped) {
		List<Step> group = new ArrayList<>();
		for (Step step : steps) {
			boolean member = grouped.contains(step.id());
			if (member && (step.id().equals(trigger) || trigger.equals(step.parallelWith())
					|| (step.parallelWith() != null && !step.parallelWith().isEmpty()))) {
				group.add(step);
			}
			if (!group.isEmpty() && !member) {
				break;
			}
		}
		return group;
	}

	/** Runs one step, adding what failed to {@code failures}. */
	private StepResult execute(Step step, Map<String, StepResult> results, List<Failure> failures) {
		pause(step.delayMs());
		if (step.action().equalsIgnoreCase("WAIT")) {
			pause((step.durationMs() > 0) ? step.durationMs() : step.delayMs());
			return StepResult.none(step.id());
		}
		if (step.action().equalsIgnoreCase("ASSERT")) {
			return StepResult.none(step.id());
		}
		String body = (step.rawBody() != null) ? step.rawBody()
				: (step.body() != null) ? Templates.resolve(step.body(), results) : null;
		if (body != null) {
			signalWorker(step, body);
		}
		HttpRequest request;
		try {
			request = request(step, Templates.resolve(step.path(), results), body);
		}
		catch (IllegalArgumentException ex) {
			failures.add(Failure.of(step.id(), "Failed to create request: " + ex.getMessage()));
			return StepResult.none(step.id());
		}
		StepResult result;
		try {
			result = send(step.id(), request);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			failures.add(Failure.of(step.id(), "HTTP request failed: " + ex));
			return StepResult.none(step.id());
		}
		failures.addAll(StepAssertions.evaluate(step, result, results));
		return result;
	}

	/** The signal the case's job asks the server to give, remembered until its heartbeat. */
	private final ThreadLocal<@Nullable String> directive = new ThreadLocal<>();

	/** The workers signalled in the case, resumed after it. */
	private final Set<String> signalled = ConcurrentHashMap.newKeySet();

	private void signalWorker(Step step, String body) {
		JsonNode json;
		try {
			json = ConformanceCases.JSON.readTree(body);
		}
		catch (RuntimeException ex) {
			return; // a raw body that is not JSON asks for no signal
		}
		String directive = json.path("options").path("metadata").path("test_directive").asString("");
		if (directive.equals("quiet") || directive.equals("terminate")) {
			this.directive.set(directive);
		}
		String signal = this.directive.get();
		String worker = json.path("worker_id").asString("");
		if (signal == null || !step.path().endsWith("/workers/heartbeat") || worker.isEmpty()) {
			return;
		}
		this.signalled.add(worker);
		adminSignal(worker, signal);
	}

	private void adminSignal(String worker, String signal) {
		try {
			String path = "/ojs/v1/admin/workers/" + worker + "/" + signal;
			HttpRequest request = HttpRequest.newBuilder(uri(this.baseUrl + path))
				.timeout(this.timeout)
				.POST(HttpRequest.BodyPublishers.noBody())
				.build();
			int status = this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
			if (status != 200) {
				throw new IllegalStateException("The Admin API refused to signal the worker: " + status);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private HttpRequest request(Step step, String path, @Nullable String body) {
		Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.putAll(step.headers());
		if (body != null && headers.getOrDefault("Content-Type", "").isEmpty()) {
			headers.put("Content-Type", MEDIA_TYPE);
		}
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(this.baseUrl + path))
			.method(step.action(), (body != null) ? HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)
					: HttpRequest.BodyPublishers.noBody());
		headers.forEach(request::header);
		return request.build();
	}

	private StepResult send(String stepId, HttpRequest request)
			throws InterruptedException, ExecutionException, TimeoutException {
		long start = System.nanoTime();
		AtomicLong headersAt = new AtomicLong();
		CompletableFuture<HttpResponse<byte[]>> exchange = this.http.sendAsync(request, (info) -> {
			headersAt.set(System.nanoTime());
			return BodySubscribers.ofByteArray();
		});
		HttpResponse<byte[]> response;
		try {
			response = exchange.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			exchange.cancel(true);
			throw new TimeoutException("no complete answer within " + this.timeout.toMillis() + " ms");
		}
		String body = new String(response.body(), StandardCharsets.UTF_8);
		return new StepResult(stepId, response.statusCode(), response.headers(), body,
				(headersAt.get() - start) / 1_000_000, object(response.body()));
	}

	/** The body when it is a JSON object (Go's {@code json.Unmarshal} into a map), else {@code null}. */
	@SuppressWarnings("unchecked")
	private static @Nullable Map<String, @Nullable Object> object(byte[] body) {
		if (body.length == 0) {
			return null;
		}
		try {
			JsonNode node = ConformanceCases.JSON.readTree(body);
			return (node.isObject()) ? (Map<String, @Nullable Object>) GoValues.of(node) : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** A URI of the text, with what a URI may not hold (an unresolved {@code {{...}}}) percent-encoded. */
	private static URI uri(String text) {
		StringBuilder encoded = new StringBuilder();
		for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
			int c = b & 0xff;
			if (c > 0x20 && c < 0x7f && "\"<>\\^`{|}".indexOf(c) < 0) {
				encoded.append((char) c);
			}
			else {
				encoded.append('%').append(String.format("%02X", c));
			}
		}
		return URI.create(encoded.toString());
	}

	private static void pause(int millis) {
		if (millis <= 0) {
			return;
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during a step's delay", ex);
		}
	}

	private static long millis(long start) {
		return (System.nanoTime() - start) / 1_000_000;
	}

}
