package dev.ojs.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.TypeLimit;
import dev.ojs.worker.WorkerStore;

/**
 * Holds claims to the limits of job types on all nodes together: at most so many jobs of a
 * type active at once, and at most so many of them with one concurrency key (a partitioned
 * limit: the key is the job's {@code concurrency_key}, given at enqueue). A claim that may take
 * jobs of a limited type locks the type's row in {@code <prefix>limits}, bounds the type's
 * active jobs (counting them when the limit could bind; per key at every claim) and takes no
 * more than the limits leave, in one transaction (the
 * queue limit's, when its queue is limited too: queue row first, then type rows in name
 * order).
 * <p>
 * In-process pollers name their types: a type at its limit is left out of the claim; a type
 * with fewer free slots than the claim wants, or with a limit per key, is claimed on its own,
 * for no more than its free slots and without the keys at their limit; a claim that took more
 * jobs of one key than the key had free hands the rest back in the same transaction. A claim of
 * any type (an HTTP worker's fetch without types) takes what it finds and hands back, in the
 * same transaction, the jobs beyond a limit.
 * <p>
 * Which types have a limit is read at most once a second, so a claim that cannot take a
 * limited type costs nothing more; a type newly limited is held to it on every node within a
 * second, at once on the node that set it.
 */
final class TypeLimits {

	/** A claim of up to {@code count} jobs of these types, without the jobs of {@code excludedKeys}. */
	@FunctionalInterface
	interface Claim {

		List<Job> claim(Map<String, Duration> visibilityByType, int count, Collection<String> excludedKeys);

	}

	private final LimitSql limits;

	/** The limits of each limited type. */
	private final LimitsCache<Map<String, TypeLimit>> limited;

	TypeLimits(LimitSql limits, String table) {
		this.limits = limits;
		this.limited = new LimitsCache<>(() -> Map.copyOf(limits.typeLimits()), Map.of(), table);
	}

	/**
	 * Claims through {@code claim}: at once when no type it may take has a limit, otherwise
	 * within the limits.
	 */
	List<Job> claim(Map<String, Duration> visibilityByType, int limit, Claim claim) {
		Map<String, TypeLimit> known = this.limited.get();
		boolean anyType = ClaimSql.anyType(visibilityByType);
		if (known.isEmpty() || (!anyType && visibilityByType.keySet().stream().noneMatch(known::containsKey))) {
			return claim.claim(visibilityByType, limit, List.of());
		}
		Set<String> types = new HashSet<>(known.keySet());
		if (!anyType) {
			types.retainAll(visibilityByType.keySet());
		}
		return this.limits.inClaimTransaction((status) -> {
			Map<String, LimitSql.Locked> locked = this.limits.lockTypes(types);
			if (locked.isEmpty()) {
				// the limits were removed since they were read
				return claim.claim(visibilityByType, limit, List.of());
			}
			Budget budget = new Budget(locked, limit);
			List<Job> claimed = anyType ? budget.keep(claim.claim(visibilityByType, limit, List.of()))
					: claimNamed(visibilityByType, limit, budget, claim);
			budget.storeActiveMax(claimed);
			if (claimed.size() > 1) {
				claimed.sort(JobRows.CLAIM_ORDER);
			}
			return claimed;
		});
	}

	/**
	 * A claim of named types: those at their limit left out; each with fewer free slots than
	 * {@code limit} or a limit per key claimed on its own first, then the others together.
	 */
	private List<Job> claimNamed(Map<String, Duration> visibilityByType, int limit, Budget budget, Claim claim) {
		List<Job> claimed = new ArrayList<>();
		Map<String, Duration> rest = new LinkedHashMap<>();
		visibilityByType.forEach((type, visibility) -> {
			TypeLimit typeLimit = budget.byType.get(type);
			int free = budget.free(type);
			if (typeLimit == null || (typeLimit.concurrencyPerKey() == null && free >= limit)) {
				rest.put(type, visibility);
			}
			else if (free > 0 && claimed.size() < limit) {
				int count = Math.min(free, limit - claimed.size());
				claimed.addAll(budget.keep(claim.claim(Map.of(type, visibility), count, budget.fullKeys(type))));
			}
		});
		if (!rest.isEmpty() && claimed.size() < limit) {
			claimed.addAll(claim.claim(rest, limit - claimed.size(), List.of()));
		}
		return claimed;
	}

	/** What the locked types' limits leave, counted down as jobs are kept. */
	private final class Budget {

		final Map<String, TypeLimit> byType = new HashMap<>();

		/** Free slots per type with a concurrency limit. */
		private final Map<String, Integer> free = new HashMap<>();

		/** The most jobs that can be active per type with a concurrency limit, as stored and as now. */
		private final Map<String, @Nullable Integer> storedActiveMax = new HashMap<>();

		private final Map<String, Integer> activeMax = new HashMap<>();

		/** Active jobs per key, per type with a limit per key. */
		private final Map<String, Map<String, Integer>> activeByKey = new HashMap<>();

		/**
		 * The budget of a claim of up to {@code limit} jobs. A type's active jobs are the bound
		 * its row keeps (the last count plus the jobs claimed since), counted again only when
		 * that bound and {@code limit} could reach its concurrency limit, as for queues
		 * ({@link QueueLimits}); active jobs per key are counted at every claim.
		 */
		Budget(Map<String, LimitSql.Locked> locked, int limit) {
			List<String> counted = new ArrayList<>();
			locked.forEach((type, row) -> {
				this.byType.put(type, row.limit());
				Integer concurrency = row.limit().concurrency();
				if (concurrency != null) {
					this.storedActiveMax.put(type, row.activeMax());
					if (row.activeMax() != null && row.activeMax() + limit <= concurrency) {
						this.activeMax.put(type, row.activeMax());
					}
					else {
						counted.add(type);
					}
				}
			});
			Map<String, Integer> active = counted.isEmpty() ? Map.of() : TypeLimits.this.limits.countActive(counted);
			for (String type : counted) {
				this.activeMax.put(type, active.getOrDefault(type, 0));
			}
			this.activeMax.forEach((type, count) -> this.free.put(type,
					Math.max(0, this.byType.get(type).concurrency() - count)));
			this.byType.forEach((type, typeLimit) -> {
				if (typeLimit.concurrencyPerKey() != null) {
					this.activeByKey.put(type, TypeLimits.this.limits.countActiveByKey(type));
				}
			});
		}

		/** Stores the bounds that changed: by a count, or by the {@code claimed} jobs. */
		void storeActiveMax(List<Job> claimed) {
			for (Job job : claimed) {
				this.activeMax.computeIfPresent(job.type(), (type, count) -> count + 1);
			}
			Map<String, Integer> changed = new HashMap<>();
			this.activeMax.forEach((type, count) -> {
				if (!count.equals(this.storedActiveMax.get(type))) {
					changed.put(type, count);
				}
			});
			if (!changed.isEmpty()) {
				TypeLimits.this.limits.setActiveMax(changed);
			}
		}

		int free(String type) {
			return this.free.getOrDefault(type, Integer.MAX_VALUE);
		}

		/** The keys of {@code type} at their limit. */
		Set<String> fullKeys(String type) {
			Integer perKey = this.byType.get(type).concurrencyPerKey();
			Set<String> full = new HashSet<>();
			this.activeByKey.getOrDefault(type, Map.of()).forEach((key, count) -> {
				if (count >= perKey) {
					full.add(key);
				}
			});
			return full;
		}

		/** The claimed jobs the limits leave room for, counted; the others are handed back. */
		List<Job> keep(List<Job> claimed) {
			boolean perKey = claimed.stream().anyMatch((job) -> this.activeByKey.containsKey(job.type()));
			Map<String, String> keys = perKey ? TypeLimits.this.limits.keysOf(claimed) : Map.of();
			List<Job> kept = new ArrayList<>(claimed.size());
			List<Job> beyond = new ArrayList<>();
			for (Job job : claimed) {
				(take(job, keys.get(job.id())) ? kept : beyond).add(job);
			}
			if (!beyond.isEmpty()) {
				TypeLimits.this.limits.unclaim(beyond);
			}
			return kept;
		}

		/** Whether the limits leave room for {@code job} (of concurrency key {@code key}); counts it if so. */
		private boolean take(Job job, @Nullable String key) {
			String type = job.type();
			TypeLimit limit = this.byType.get(type);
			if (limit == null) {
				return true;
			}
			Map<String, Integer> byKey = this.activeByKey.get(type);
			boolean keyFull = byKey != null && key != null && byKey.getOrDefault(key, 0) >= limit.concurrencyPerKey();
			if (free(type) <= 0 || keyFull) {
				return false;
			}
			if (this.free.containsKey(type)) {
				this.free.put(type, this.free.get(type) - 1);
			}
			if (byKey != null && key != null) {
				byKey.merge(key, 1, Integer::sum);
			}
			return true;
		}

	}

	static void check(String type) {
		if (type == null || type.isBlank()) {
			throw new IllegalArgumentException("Job type must not be blank");
		}
		InsertRow.checkLength("type", LimitSql.TYPE + type);
	}

	/** A limit changed on this node: read them again before the next claim. */
	void changed() {
		this.limited.changed();
	}

	/**
	 * Whether the type had a limit when the limits were last read; for
	 * {@link WorkerStore#ANY_TYPE}, whether any type had.
	 */
	boolean isLimited(@Nullable String type) {
		Map<String, TypeLimit> known = this.limited.last();
		return type != null && (WorkerStore.ANY_TYPE.equals(type) ? !known.isEmpty() : known.containsKey(type));
	}

}
