package dev.ojs.bench;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencySummaryTests {

	@Test
	void nearestRankPercentilesOfOneToHundredMilliseconds() {
		long[] micros = LongStream.rangeClosed(1, 100).map((ms) -> ms * 1000).toArray();
		// shuffle-insensitive: reverse the input
		long[] reversed = LongStream.rangeClosed(1, 100).map((i) -> (101 - i) * 1000).toArray();
		for (long[] samples : new long[][] { micros, reversed }) {
			LatencySummary summary = LatencySummary.ofMicros(samples);
			assertThat(summary.count()).isEqualTo(100);
			assertThat(summary.p50()).isEqualTo(50.0);
			assertThat(summary.p95()).isEqualTo(95.0);
			assertThat(summary.p99()).isEqualTo(99.0);
			assertThat(summary.max()).isEqualTo(100.0);
			assertThat(summary.mean()).isCloseTo(50.5, within(1e-9));
		}
	}

	@Test
	void smallSamplesUseTheNearestRank() {
		long[] sorted = { 10, 20, 30 };
		assertThat(LatencySummary.nearestRank(sorted, 50)).isEqualTo(20);
		assertThat(LatencySummary.nearestRank(sorted, 99)).isEqualTo(30);
		assertThat(LatencySummary.nearestRank(new long[] { 7 }, 1)).isEqualTo(7);
		LatencySummary one = LatencySummary.ofMicros(new long[] { 1500 });
		assertThat(one.p50()).isEqualTo(1.5);
		assertThat(one.p99()).isEqualTo(1.5);
	}

	@Test
	void noSamplesIsEmpty() {
		assertThat(LatencySummary.ofMicros(new long[0])).isEqualTo(LatencySummary.EMPTY);
		assertThat(LatencySummary.EMPTY.p50()).isNaN();
	}

	@Test
	void recorderCollectsFromManyThreads() throws InterruptedException {
		LatencyRecorder recorder = new LatencyRecorder();
		Thread[] threads = new Thread[4];
		for (int t = 0; t < threads.length; t++) {
			threads[t] = new Thread(() -> {
				for (int i = 0; i < 5000; i++) {
					recorder.record(i);
				}
			});
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(recorder.size()).isEqualTo(20_000);
		assertThat(recorder.summary().max()).isEqualTo(4.999);
		long before = LatencyRecorder.nowMicros();
		recorder.clear();
		recorder.recordSince(before);
		assertThat(recorder.toArray()).hasSize(1);
		assertThat(recorder.toArray()[0]).isBetween(0L, 1_000_000L);
	}

}
