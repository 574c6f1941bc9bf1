package dev.ojs.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JobIds}.
 */
class JobIdsTests {

	@Test
	void idsAreLowercaseUuidV7WithTheCurrentTime() {
		long before = System.currentTimeMillis();
		String id = JobIds.newId();
		long after = System.currentTimeMillis();
		assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
		UUID uuid = UUID.fromString(id);
		assertThat(uuid.version()).isEqualTo(7);
		assertThat(uuid.variant()).isEqualTo(2);
		assertThat(uuid.getMostSignificantBits() >>> 16).isBetween(before, after + 1);
	}

	@Test
	void idsIncreaseStrictlyWithinAJvm() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 50_000; i++) {
			ids.add(JobIds.newId());
		}
		assertThat(ids).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void idsAreUniqueAcrossThreads() {
		Set<String> ids = ConcurrentHashMap.newKeySet();
		IntStream.range(0, 8).parallel().forEach((thread) -> {
			for (int i = 0; i < 10_000; i++) {
				ids.add(JobIds.newId());
			}
		});
		assertThat(ids).hasSize(80_000);
	}

}
