package dev.ojs.jdbc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A thread-safe cache for the handful of distinct values that repeat across many rows (the
 * retry policies parsed from stored JSON). It never holds more than {@code maxSize} entries: when full it
 * forgets everything and starts again, which costs one recomputation per distinct key.
 *
 * @param <K> key type
 * @param <V> value type
 */
final class BoundedCache<K, V> {

	private final int maxSize;

	private final Map<K, V> entries = new ConcurrentHashMap<>();

	BoundedCache(int maxSize) {
		this.maxSize = maxSize;
	}

	/** The cached value of {@code key}, computed (outside any lock) when missing. */
	V get(K key, Function<? super K, ? extends V> compute) {
		V value = this.entries.get(key);
		if (value == null) {
			value = compute.apply(key);
			if (this.entries.size() >= this.maxSize) {
				this.entries.clear();
			}
			this.entries.put(key, value);
		}
		return value;
	}

}
