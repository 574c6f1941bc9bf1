package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DropLog}: one line per interval for all drops, counting those since the last line. */
class DropLogTests {

	private final List<String> lines = new ArrayList<>();

	private final AtomicLong now = new AtomicLong(1_000);

	private final DropLog log = new DropLog(new NoOpLog() {

		@Override
		public void warn(Object message) {
			DropLogTests.this.lines.add(String.valueOf(message));
		}

	}, Duration.ofSeconds(10), this.now::get);

	@Test
	void logsTheFirstDropThenAtMostOneLinePerIntervalWithTheCount() {
		this.log.dropped(100);
		assertThat(this.lines).hasSize(1);
		assertThat(this.lines.get(0)).startsWith("OJS event stream: dropped 1 subscriber(s) that fell 100 events behind");

		for (int i = 0; i < 1000; i++) {
			this.now.addAndGet(Duration.ofMillis(5).toNanos());
			this.log.dropped(100);
		}
		assertThat(this.lines).as("5 s passed").hasSize(1);

		this.now.addAndGet(Duration.ofSeconds(5).toNanos());
		this.log.dropped(100);
		assertThat(this.lines).hasSize(2);
		assertThat(this.lines.get(1)).contains("dropped 1001 subscriber(s)");
	}

}
