package dev.ojs.json;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.TypeLimit;

/**
 * A job type's limits on all nodes as JSON (the Admin API's {@code /limits}): {@code type},
 * {@code concurrency} and {@code concurrency_per_key}, each limit {@code null} for none, and
 * {@code active}, the type's active jobs on all nodes, when counted.
 */
public final class TypeLimitJson {

	private TypeLimitJson() {
	}

	public static Map<String, Object> admin(String type, TypeLimit limit, @Nullable Long active) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("type", type);
		view.put("concurrency", limit.concurrency());
		view.put("concurrency_per_key", limit.concurrencyPerKey());
		if (active != null) {
			view.put("active", active);
		}
		return view;
	}

}
