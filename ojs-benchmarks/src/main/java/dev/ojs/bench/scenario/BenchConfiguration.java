package dev.ojs.bench.scenario;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application each benchmark scenario starts: the starter's auto-configuration on the
 * benchmark database, plus the benchmark handlers and probes.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class BenchConfiguration {

	@Bean
	JobProbe jobProbe() {
		return new JobProbe();
	}

	@Bean
	RecurringJobProbe recurringJobProbe() {
		return new RecurringJobProbe();
	}

	@Bean
	BenchJobs benchJobs(JobProbe jobProbe) {
		return new BenchJobs(jobProbe);
	}

	@Bean
	WorkflowProbe workflowProbe() {
		return new WorkflowProbe();
	}

	@Bean
	WorkflowJobs workflowJobs(WorkflowProbe workflowProbe) {
		return new WorkflowJobs(workflowProbe);
	}

}
