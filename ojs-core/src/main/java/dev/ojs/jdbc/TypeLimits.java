package dev.ojs.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;


import dev.ojs.job.Job;

/**
 * Holds claims to the concurrency limits of job types on all nodes together: a claim that may
 * take jobs of a limited type locks the type's row in {@code <prefix>limits}, counts the type's
 * active jobs and takes no more than the limit leaves, in one transaction (the queue limit's,
 * when its queue is limited too: queue row first, then type rows in name order). In-process
 * pollers name their types: a type at its limit is left out of the claim, a type with fewer
 * free slots than the claim wants is claimed on its own, for no more than those. A claim of any
 * type (an HTTP worker's fetch without types) takes what it finds and hands back, in the same
 * transaction, the jobs of limited types beyond their limits.
 * <p>
 * Which types have a limit is read at most once a second, so a claim that cannot take a
 * limited type costs nothing more; a type newly limited is held to it on every node within a
 * second, at once on the node that set it.
 */
final class TypeLimits {

	private final LimitSql limits;

	/** The concurrency limit of each limited type. */
	private final LimitsCache<Map<String, Integer>> limited;

	TypeLimits(LimitSql limits, String table) {
		this.limits = limits;
		this.limited = new LimitsCache<>(() -> Map.copyOf(limits.typeConcurrencies()), Map.of(), table);
	}

	/**
	 * Claims through {@code claim} (given the types with their visibility, and how many jobs to
	 * take at most): at once when no type it may take has a limit, otherwise within the limits.
	 */
	List<Job> claim(Map<String, Duration> visibilityByType, int limit,
			BiFunction<Map<String, Duration>, Integer, List<Job>> claim) {
		Map<String, Integer> known = this.limited.get();
		boolean anyType = ClaimSql.anyType(visibilityByType);
		if (known.isEmpty() || (!anyType && visibilityByType.keySet().stream().noneMatch(known::containsKey))) {
			return claim.apply(visibilityByType, limit);
		}
		Set<String> types = anyType ? known.keySet() : intersection(visibilityByType.keySet(), known.keySet());
		return this.limits.inClaimTransaction((status) -> {
			Map<String, Integer> locked = this.limits.lockTypes(types);
			if (locked.isEmpty()) {
				// the limits were removed since they were read
				return claim.apply(visibilityByType, limit);
			}
			Map<String, Integer> free = new HashMap<>();
			Map<String, Integer> active = this.limits.countActive(locked.keySet());
			locked.forEach((type, concurrency) -> free.put(type, Math.max(0, concurrency - active.getOrDefault(type, 0))));
			return anyType ? claimAny(visibilityByType, limit, free, claim) : claimNamed(visibilityByType, limit, free, claim);
		});
	}

	/**
	 * A claim of named types: those at their limit left out, each with fewer free slots than
	 * {@code limit} claimed on its own first, then the others together.
	 */
	private List<Job> claimNamed(Map<String, Duration> visibilityByType, int limit, Map<String, Integer> free,
			BiFunction<Map<String, Duration>, Integer, List<Job>> claim) {
		List<Job> claimed = new ArrayList<>();
		Map<String, Duration> rest = new LinkedHashMap<>();
		visibilityByType.forEach((type, visibility) -> {
			Integer slots = free.get(type);
			if (slots == null || slots >= limit) {
				rest.put(type, visibility);
			}
			else if (slots > 0 && claimed.size() < limit) {
				claimed.addAll(claim.apply(Map.of(type, visibility), Math.min(slots, limit - claimed.size())));
			}
		});
		if (!rest.isEmpty() && claimed.size() < limit) {
			claimed.addAll(claim.apply(rest, limit - claimed.size()));
		}
		if (claimed.size() > 1) {
			claimed.sort(JobRows.CLAIM_ORDER);
		}
		return claimed;
	}

	/** A claim of any type: takes what it finds, then hands back the jobs beyond a limit. */
	private List<Job> claimAny(Map<String, Duration> visibilityByType, int limit, Map<String, Integer> free,
			BiFunction<Map<String, Duration>, Integer, List<Job>> claim) {
		List<Job> claimed = claim.apply(visibilityByType, limit);
		List<Job> kept = new ArrayList<>(claimed.size());
		List<Job> beyond = new ArrayList<>();
		Map<String, Integer> left = new HashMap<>(free);
		for (Job job : claimed) {
			Integer slots = left.get(job.type());
			if (slots == null) {
				kept.add(job);
			}
			else if (slots > 0) {
				left.put(job.type(), slots - 1);
				kept.add(job);
			}
			else {
				beyond.add(job);
			}
		}
		if (!beyond.isEmpty()) {
			this.limits.unclaim(beyond);
		}
		return kept;
	}

	private static Set<String> intersection(Set<String> types, Set<String> limited) {
		Set<String> both = new HashSet<>(types);
		both.retainAll(limited);
		return both;
	}

	static void check(String type, @Nullable Integer concurrency) {
		if (type == null || type.isBlank()) {
			throw new IllegalArgumentException("Job type must not be blank");
		}
		InsertRow.checkLength("type", LimitSql.TYPE + type);
		if (concurrency != null && concurrency < 1) {
			throw new IllegalArgumentException("A job type's concurrency must be at least 1: " + concurrency);
		}
	}

	/** A limit changed on this node: read them again before the next claim. */
	void changed() {
		this.limited.changed();
	}

	/** Whether the type had a concurrency limit when the limits were last read. */
	boolean isLimited(@Nullable String type) {
		return type != null && this.limited.last().containsKey(type);
	}

}
