package dev.ojs.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.testsupport.DatabaseTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two nodes, each a whole application context on one database, with a recurring-job lease thirty
 * times the evaluation interval: when the holder's context closes (a graceful stop), the other node
 * holds the lease within an interval, not the lease's length (CRON-21, CRON-22). Subclasses choose
 * the database.
 */
abstract class AbstractLeaseHandOverIntegrationTests extends DatabaseTests {

	private static final Duration INTERVAL = Duration.ofSeconds(1);

	private static final Duration LEASE_TTL = Duration.ofSeconds(30);

	private final Map<String, ConfigurableApplicationContext> nodes = new LinkedHashMap<>();

	@AfterAll
	void closeNodes() {
		this.nodes.values().forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aClosedHoldersLeaseIsTakenWithinAnInterval() {
		for (String node : new String[] { "lease-a", "lease-b" }) {
			this.nodes.put(node, new SpringApplicationBuilder(AbstractFourContextRecurringJobTests.FourNodeApplication.class)
				.web(WebApplicationType.NONE)
				.properties("test.database=" + kind().name(), "ojs.jdbc.table-prefix=" + this.schema.tablePrefix(),
						"ojs.jdbc.initialize-schema=always", "ojs.worker.node-id=" + node,
						"ojs.cron.interval=" + INTERVAL.toMillis() + "ms", "ojs.cron.lease-ttl=" + LEASE_TTL.toMillis() + "ms",
						"spring.main.banner-mode=off")
				.run());
		}
		RecurringJobStore store = this.nodes.get("lease-a").getBean(RecurringJobStore.class);
		await().atMost(INTERVAL.multipliedBy(5)).until(() -> store.leaseHolder().isPresent());
		String holder = store.leaseHolder().orElseThrow();
		String successor = holder.equals("lease-a") ? "lease-b" : "lease-a";
		RecurringJobEvaluator next = this.nodes.get(successor).getBean(RecurringJobEvaluator.class);
		assertThat(next.isLeader()).isFalse();

		long closedAt = System.nanoTime();
		this.nodes.remove(holder).close();
		// an interval to the successor's next evaluation, and one for a loaded machine
		await().atMost(INTERVAL.multipliedBy(2)).pollInterval(Duration.ofMillis(20)).until(next::isLeader);
		assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isLessThan(LEASE_TTL.dividedBy(10));
		assertThat(this.nodes.get(successor).getBean(RecurringJobStore.class).leaseHolder()).hasValue(successor);
	}

}
