package dev.ojs.retry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The layers a job's effective policy is merged from (spec §8.1), lowest first: the spec
 * defaults, the application's defaults, the handler's settings and the job's own fields. It
 * tells where each field of the effective policy came from.
 */
public final class RetryPolicyLayers {

	/** Layer name of the spec's default policy (§8). */
	public static final String SPEC = "spec";

	/** Layer name of the application's defaults ({@code ojs.retry.*} of the node whose handler runs the job). */
	public static final String APPLICATION = "application";

	/** Layer name of the handler's own settings ({@code @OjsJob} attributes). */
	public static final String HANDLER = "handler";

	/** Layer name of the fields given for this one job. */
	public static final String JOB = "job";

	private final List<Map.Entry<String, RetryPolicy>> layers;

	/** {@link #effective()} and {@link #sources()}, once computed (immutable, so a benign race at worst computes twice). */
	private @Nullable RetryPolicy effective;

	private @Nullable Map<String, String> sources;

	private RetryPolicyLayers(List<Map.Entry<String, RetryPolicy>> layers) {
		this.layers = layers;
	}

	/** Starts from the spec defaults. */
	public static RetryPolicyLayers spec() {
		return new RetryPolicyLayers(List.of(Map.entry(SPEC, RetryPolicy.DEFAULT)));
	}

	/** These layers with another one over them. */
	public RetryPolicyLayers over(String name, RetryPolicy partial) {
		List<Map.Entry<String, RetryPolicy>> layers = new ArrayList<>(this.layers);
		layers.add(Map.entry(name, partial));
		return new RetryPolicyLayers(List.copyOf(layers));
	}

	/**
	 * The layers merged, highest winning, and validated.
	 * @throws RetryPolicyValidationException when the merged policy is invalid
	 */
	public RetryPolicy effective() {
		RetryPolicy effective = this.effective;
		if (effective == null) {
			effective = merge();
			this.effective = effective;
		}
		return effective;
	}

	private RetryPolicy merge() {
		RetryPolicy merged = this.layers.get(0).getValue();
		for (int i = 1; i < this.layers.size(); i++) {
			merged = this.layers.get(i).getValue().mergedOver(merged);
		}
		return merged.effective();
	}

	/** For each field, by its JSON name, the name of the highest layer that sets it. */
	public Map<String, String> sources() {
		Map<String, String> sources = this.sources;
		if (sources == null) {
			sources = findSources();
			this.sources = sources;
		}
		return sources;
	}

	private Map<String, String> findSources() {
		List<Set<String>> fields = this.layers.stream().map((layer) -> layer.getValue().fieldNames()).toList();
		Map<String, String> sources = new LinkedHashMap<>();
		for (String field : RetryPolicy.DEFAULT.fieldNames()) {
			for (int i = this.layers.size() - 1; i >= 0; i--) {
				if (fields.get(i).contains(field)) {
					sources.put(field, this.layers.get(i).getKey());
					break;
				}
			}
		}
		return Collections.unmodifiableMap(sources);
	}

}
