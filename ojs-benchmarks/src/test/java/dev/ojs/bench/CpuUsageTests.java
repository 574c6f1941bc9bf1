package dev.ojs.bench;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuUsageTests {

	@Test
	void databaseTicksCountEachProcessSinceTheEarlierReading() {
		// 10 → 25 ticks; 7 from a backend started in the window; a backend that exited with 500 is not subtracted
		assertThat(CpuUsage.ticksSince(Map.of("100", 10.0, "200", 500.0), Map.of("100", 25.0, "300", 7.0)))
			.isEqualTo(22.0);
		assertThat(CpuUsage.ticksSince(Map.of("100", 10.0), Map.of())).isZero();
		assertThat(CpuUsage.ticksSince(null, Map.of("100", 10.0))).isNaN();
	}

}
