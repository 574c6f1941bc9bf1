package dev.ojs.bench.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.CommandLine;

/**
 * A worker process of the fault-injection harness: a Spring Boot application with the
 * starter's worker and the {@link ChaosJobs} handler, on the coordinator's table prefix. It
 * prints {@value #READY} once started and runs until killed or sent SIGTERM.
 */
public final class ChaosWorker {

	/** Printed once the worker is running. */
	public static final String READY = "CHAOS WORKER READY";

	private ChaosWorker() {
	}

	public static void main(String[] args) throws InterruptedException {
		CommandLine line = CommandLine.parse(args);
		int concurrency = line.integer("concurrency", 4);
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", line.string("jdbc-url", null));
		properties.put("spring.datasource.hikari.maximum-pool-size", concurrency + 6);
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "WARN");
		properties.put("ojs.jdbc.table-prefix", line.string("table-prefix", null));
		properties.put("ojs.jdbc.initialize-schema", "never");
		properties.put("ojs.visibility-timeout", line.string("visibility-timeout", "PT5S"));
		properties.put("ojs.worker.concurrency", concurrency);
		properties.put("ojs.worker.poll-interval", "PT0.5S");
		properties.put("ojs.worker.shutdown-grace-period", "PT10S");
		properties.put("ojs.retention.completed", "PT1H");
		properties.put("chaos.work-min-ms", line.integer("work-min-ms", 10));
		properties.put("chaos.work-max-ms", line.integer("work-max-ms", 50));
		line.rejectUnused();
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Configuration.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run();
		System.out.println(READY + " pid " + ProcessHandle.current().pid());
		System.out.flush();
		// SIGTERM runs Spring's shutdown hook, which closes the context (graceful worker stop)
		while (context.isActive()) {
			Thread.sleep(200);
		}
	}

	/** The worker application. */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Configuration {

		@Bean
		ChaosJobs chaosJobs(JdbcTemplate jdbcTemplate, Environment environment) {
			ExecutionLog log = new ExecutionLog(jdbcTemplate, environment.getRequiredProperty("ojs.jdbc.table-prefix"));
			return new ChaosJobs(log, environment.getRequiredProperty("chaos.work-min-ms", Integer.class),
					environment.getRequiredProperty("chaos.work-max-ms", Integer.class));
		}

	}

}
