package dev.ojs.jdbc;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BoundedCache}.
 */
class BoundedCacheTests {

	@Test
	void computesEachKeyOnceAndNeverHoldsMoreThanItsSize() {
		BoundedCache<Integer, String> cache = new BoundedCache<>(3);
		AtomicInteger computed = new AtomicInteger();
		for (int round = 0; round < 2; round++) {
			for (int key = 0; key < 3; key++) {
				assertThat(cache.get(key, (k) -> computed.incrementAndGet() + ":" + k)).endsWith(":" + key);
			}
		}
		assertThat(computed).hasValue(3);
		// a fourth key: the cache forgets the others
		cache.get(3, String::valueOf);
		assertThat(cache.get(0, (k) -> "again")).isEqualTo("again");
		assertThat(cache.get(3, (k) -> "again")).isEqualTo("3");
	}

}
