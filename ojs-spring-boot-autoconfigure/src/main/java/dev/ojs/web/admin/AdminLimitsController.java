package dev.ojs.web.admin;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.job.TypeLimit;
import dev.ojs.json.TypeLimitJson;
import dev.ojs.spring.OjsTypeLimits;
import dev.ojs.web.PathVariables;

/**
 * The concurrency limits of job types on all nodes, through {@link OjsTypeLimits}: the list of
 * limited types, and a type's limits set or removed (an extension of ojs-admin-api.md, next to
 * a queue's {@code PUT /queues/{name}/config}).
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/limits")
public class AdminLimitsController {

	/** The fields of a type's limits that can be changed. */
	private static final Set<String> CONFIGURABLE = Set.of("concurrency", "concurrency_per_key");

	private final OjsTypeLimits limits;

	public AdminLimitsController(OjsTypeLimits limits) {
		this.limits = limits;
	}

	/** The limited job types, in type order, with their active jobs. */
	@GetMapping
	public Map<String, Object> list() {
		List<Map<String, Object>> items = this.limits.limits().entrySet().stream()
			.map((entry) -> TypeLimitJson.admin(entry.getKey(), entry.getValue(), this.limits.active(entry.getKey())))
			.toList();
		return AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
	}

	/**
	 * Sets or removes ({@code null}) the type's {@code concurrency} and
	 * {@code concurrency_per_key} on every node; a field left out stays as it is.
	 */
	@PutMapping("/types/{type}")
	public Map<String, Object> configure(@PathVariable String type,
			@RequestBody(required = false) @Nullable Map<String, Object> body) {
		TypeLimit current = PathVariables.named("type", () -> this.limits.limit(type));
		Map<String, Object> fields = AdminViews.configuration(body, CONFIGURABLE,
				"'concurrency' and 'concurrency_per_key'", "concurrency",
				"The body must set 'concurrency' or 'concurrency_per_key' (an integer, or null to remove the limit)");
		Integer concurrency = fields.containsKey("concurrency")
				? AdminQueuesController.limit(fields.get("concurrency"), "concurrency") : current.concurrency();
		Integer perKey = fields.containsKey("concurrency_per_key")
				? AdminQueuesController.limit(fields.get("concurrency_per_key"), "concurrency_per_key")
				: current.concurrencyPerKey();
		return TypeLimitJson.admin(type, this.limits.set(type, concurrency, perKey), this.limits.active(type));
	}

}
