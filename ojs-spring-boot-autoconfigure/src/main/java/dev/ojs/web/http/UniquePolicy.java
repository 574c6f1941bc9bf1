package dev.ojs.web.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobState;
import dev.ojs.job.UniqueScope;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * A job's unique policy (ojs-unique-jobs.md §2), as far as the store's uniqueness goes: it
 * is strong (a unique index on type and key among live jobs, §8.1); {@code period} (decision 35)
 * and {@code states} narrow which live holder counts as a duplicate. The key is the SHA-256 of the
 * canonical JSON of the chosen dimensions (§4: type always, sorted keys, NFC strings,
 * compact).
 *
 * @param dimensions the chosen dimensions besides {@code type}
 * @param argsKeys keys of the first argument (an object) to use instead of all arguments
 * @param metaKeys keys of {@code meta} to use
 * @param onConflict {@code reject}, {@code ignore} (alias {@code use_existing}) or
 * {@code replace}
 * @param period how long a holder counts from its creation, or {@code null}
 * @param states the live states in which a holder counts; empty for all
 */
record UniquePolicy(Set<String> dimensions, @Nullable List<String> argsKeys, @Nullable List<String> metaKeys,
		String onConflict, @Nullable Duration period, Set<JobState> states) {

	static final String REJECT = "reject";

	static final String IGNORE = "ignore";

	static final String REPLACE = "replace";

	private static final Set<String> FIELDS = Set.of("keys", "args_keys", "meta_keys", "period", "states",
			"on_conflict");

	private static final Set<String> DIMENSIONS = Set.of("type", "queue", "args", "meta");

	private static final Set<String> ALL_STATES = Set.of("scheduled", "pending", "available", "active", "completed",
			"retryable", "discarded", "cancelled");

	/** Reads {@code options.unique}; {@code 400} for an invalid policy, {@code 422} for what the store cannot do. */
	static UniquePolicy read(JsonNode node, String field) {
		if (!node.isObject()) {
			throw EnqueueRequest.invalid(field, "The unique policy must be a JSON object.", "object", node);
		}
		for (String name : node.propertyNames()) {
			if (!FIELDS.contains(name)) {
				throw EnqueueRequest.invalid(field + "." + name, "Unknown unique policy field '" + name + "'.",
						String.join("|", FIELDS), node.get(name));
			}
		}
		List<String> keys = strings(node.get("keys"), field + ".keys");
		Set<String> dimensions = new java.util.TreeSet<>((keys != null) ? keys : List.of("type"));
		for (String dimension : dimensions) {
			if (!DIMENSIONS.contains(dimension)) {
				throw EnqueueRequest.invalid(field + ".keys", "Unknown unique dimension '" + dimension
						+ "'; use type, queue, args or meta.", "type|queue|args|meta", node.get("keys"));
			}
		}
		List<String> argsKeys = strings(node.get("args_keys"), field + ".args_keys");
		List<String> metaKeys = strings(node.get("meta_keys"), field + ".meta_keys");
		if (dimensions.contains("meta") && (metaKeys == null || metaKeys.isEmpty())) {
			throw EnqueueRequest.invalid(field + ".meta_keys", "'meta_keys' is required when 'keys' holds 'meta'.",
					"array", node.get("meta_keys"));
		}
		String onConflict = node.has("on_conflict") && !node.get("on_conflict").isNull()
				? Bodies.string(node, "on_conflict") : REJECT;
		onConflict = onConflict.equals("use_existing") ? IGNORE : onConflict;
		if (!Set.of(REJECT, IGNORE, REPLACE, "replace_except_schedule").contains(onConflict)) {
			throw EnqueueRequest.invalid(field + ".on_conflict",
					"'on_conflict' is reject, ignore, use_existing, replace or replace_except_schedule.", "strategy",
					node.get("on_conflict"));
		}
		if (onConflict.equals("replace_except_schedule")) {
			throw unsupported(field + ".on_conflict", "on_conflict 'replace_except_schedule' is not supported.");
		}
		JsonNode periodNode = node.get("period");
		Duration period = null;
		if (periodNode != null && !periodNode.isNull()) {
			period = EnqueueRequest.optionalDuration(periodNode, field + ".period");
		}
		List<String> stateNames = strings(node.get("states"), field + ".states");
		Set<JobState> states = EnumSet.noneOf(JobState.class);
		if (stateNames != null) {
			for (String name : stateNames) {
				if (!ALL_STATES.contains(name)) {
					throw EnqueueRequest.invalid(field + ".states", "Unknown job state '" + name + "'.", "job state",
							node.get("states"));
				}
				JobState state = JobState.fromValue(name);
				if (UniqueScope.LIVE.contains(state)) {
					states.add(state);
				}
				else if (state != JobState.PENDING) {
					// a finished job holds no key: uniqueness is among live jobs (§8.1)
					throw unsupported(field + ".states", "Unique states are live states (scheduled, available, active,"
							+ " retryable); a job in state '" + name + "' holds no unique key.");
				}
			}
		}
		return new UniquePolicy(dimensions, argsKeys, metaKeys, onConflict, period, states);
	}

	/** The unique key of a job (§4.1). */
	String key(String type, String queue, List<JsonNode> args, Map<String, Object> meta, JsonMapper jsonMapper,
			String field) {
		Map<String, Object> values = new TreeMap<>();
		values.put("type", type);
		if (this.dimensions.contains("queue")) {
			values.put("queue", queue);
		}
		if (this.dimensions.contains("args")) {
			values.put("args", (this.argsKeys != null) ? selected(args, this.argsKeys, field) : args);
		}
		if (this.dimensions.contains("meta")) {
			Map<String, Object> selected = new TreeMap<>();
			for (String key : this.metaKeys) {
				selected.put(key, meta.get(key));
			}
			values.put("meta", selected);
		}
		String canonical = canonical(jsonMapper.valueToTree(values));
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The {@code args_keys} of the first argument, which must be an object holding them all (§2.2). */
	private static Map<String, JsonNode> selected(List<JsonNode> args, List<String> keys, String field) {
		JsonNode first = args.isEmpty() ? null : args.get(0);
		Map<String, JsonNode> selected = new TreeMap<>();
		for (String key : keys) {
			if (first == null || !first.isObject() || !first.has(key)) {
				throw EnqueueRequest.invalid(field + ".args_keys", "'args_keys' names '" + key
						+ "', which the first argument (an object) does not hold.", "key of args[0]", first);
			}
			selected.put(key, first.get(key));
		}
		return selected;
	}

	/** Sorted keys at every level, NFC strings, no whitespace. */
	static String canonical(JsonNode node) {
		if (node.isObject()) {
			Map<String, String> sorted = new TreeMap<>();
			node.properties().forEach((entry) -> sorted.put(Normalizer.normalize(entry.getKey(), Normalizer.Form.NFC),
					canonical(entry.getValue())));
			StringBuilder json = new StringBuilder("{");
			sorted.forEach((key, value) -> json.append((json.length() > 1) ? "," : "")
				.append(tools.jackson.databind.node.StringNode.valueOf(key).toString())
				.append(':')
				.append(value));
			return json.append('}').toString();
		}
		if (node.isArray()) {
			StringBuilder json = new StringBuilder("[");
			node.forEach((element) -> json.append((json.length() > 1) ? "," : "").append(canonical(element)));
			return json.append(']').toString();
		}
		if (node.isString()) {
			return tools.jackson.databind.node.StringNode
				.valueOf(Normalizer.normalize(node.stringValue(), Normalizer.Form.NFC))
				.toString();
		}
		return node.toString();
	}

	private static @Nullable List<String> strings(@Nullable JsonNode node, String field) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isArray()) {
			throw EnqueueRequest.invalid(field, "'" + field + "' must be an array of strings.", "array", node);
		}
		List<String> values = new java.util.ArrayList<>();
		for (JsonNode value : node) {
			if (!value.isString()) {
				throw EnqueueRequest.invalid(field, "'" + field + "' must be an array of strings.", "string", value);
			}
			values.add(value.stringValue());
		}
		return values;
	}

	private static ApiException unsupported(String field, String message) {
		return new ApiException(422, ApiError.UNSUPPORTED, message, false, Map.of("field", field));
	}

}
