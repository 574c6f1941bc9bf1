package dev.ojs.spring;

import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.TypeLimit;

/**
 * Reads and sets the concurrency limits of job types on all nodes together
 * ({@link OjsJob#globalConcurrency()} and {@link OjsJob#globalConcurrencyPerKey()}): what the
 * Admin API and the dashboard change at run time. A node publishes its handlers' limits when it
 * starts where they differ from the stored ones, so a limit set here holds until a node with
 * other annotated limits starts.
 */
public class OjsTypeLimits {

	private static final Log logger = LogFactory.getLog(OjsTypeLimits.class);

	/** Active jobs are counted exactly up to this many. */
	private static final long EXACT_UP_TO = 100_000;

	private final JobStore store;

	private final @Nullable AdminStore admin;

	public OjsTypeLimits(JobStore store, @Nullable AdminStore admin) {
		this.store = store;
		this.admin = admin;
	}

	/**
	 * The active jobs of {@code type} on all nodes (what its limit counts), or {@code null}
	 * when the store cannot count them.
	 */
	public @Nullable Long active(String type) {
		if (this.admin == null) {
			return null;
		}
		JobQuery query = new JobQuery(JobState.ACTIVE, null, null, type, false, null, null, null, null, null, 1, false);
		return this.admin.count(query, EXACT_UP_TO).value();
	}

	/** The limits of every limited job type, by type, in type order. */
	public Map<String, TypeLimit> limits() {
		return this.store.typeLimits();
	}

	/** The limits of {@code type}, {@link TypeLimit#NONE} when it has none. */
	public TypeLimit limit(String type) {
		OjsNames.checkType(type, "type");
		return limits().getOrDefault(type, TypeLimit.NONE);
	}

	/**
	 * Sets or removes ({@code null}) a type's limits on all nodes: at most {@code concurrency}
	 * of its jobs active at once, at most {@code concurrencyPerKey} of them with one concurrency
	 * key. Claims on this node hold to it at once, on other nodes within a second.
	 * @throws OjsValidationException when the type is not a job type name (field {@code type})
	 * or a limit is below 1 (field {@code concurrency} or {@code concurrency_per_key})
	 */
	public TypeLimit set(String type, @Nullable Integer concurrency, @Nullable Integer concurrencyPerKey) {
		OjsNames.checkType(type, "type");
		check("concurrency", concurrency);
		check("concurrency_per_key", concurrencyPerKey);
		TypeLimit limit = new TypeLimit(concurrency, concurrencyPerKey);
		this.store.setTypeLimit(type, limit);
		logger.info("OJS job type '" + type + "' " + (limit.isNone() ? "limits removed"
				: "limited to " + ((concurrency != null) ? concurrency + " at once" : "")
						+ ((concurrency != null && concurrencyPerKey != null) ? " and " : "")
						+ ((concurrencyPerKey != null) ? concurrencyPerKey + " per key" : "") + " on all nodes"));
		return limit;
	}

	private static void check(String field, @Nullable Integer limit) {
		if (limit != null && limit < 1) {
			throw new OjsValidationException(field,
					"The '" + field + "' must be an integer of at least 1, or null to remove the limit.");
		}
	}

}
