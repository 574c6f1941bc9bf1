package dev.ojs.spring.autoconfigure.actuate;

import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.spring.actuate.JobMetricsListener;
import dev.ojs.spring.actuate.QueueDepthMetrics;
import dev.ojs.spring.actuate.WorkflowMetricsListener;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the OJS Micrometer metrics: a
 * {@link JobMetricsListener} (job outcome counters and timers, picked up by the worker as
 * one of the context's {@code JobListener} beans) and the {@link QueueDepthMetrics}
 * gauges.
 */
@AutoConfiguration(afterName = { OjsActuatorOrdering.OJS_AUTO_CONFIGURATION,
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass({ JobStore.class, MeterRegistry.class })
@ConditionalOnBean({ JobStore.class, MeterRegistry.class })
@EnableConfigurationProperties(OjsMetricsProperties.class)
public final class OjsMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	QueueDepthMetrics ojsQueueDepthMetrics(JobStore jobStore, ObjectProvider<OjsQueues> queues,
			OjsMetricsProperties properties) {
		return new QueueDepthMetrics(queues.getIfAvailable(() -> new OjsQueues(jobStore)),
				properties.getDepthRefreshInterval());
	}

	@Bean
	@ConditionalOnMissingBean
	JobMetricsListener ojsJobMetricsListener(MeterRegistry meterRegistry,
			ObjectProvider<QueueDepthMetrics> queueDepthMetrics) {
		return new JobMetricsListener(meterRegistry, queueDepthMetrics.getIfAvailable());
	}

	@Bean
	@ConditionalOnBean(OjsWorkflows.class)
	@ConditionalOnMissingBean
	WorkflowMetricsListener ojsWorkflowMetricsListener(MeterRegistry meterRegistry) {
		return new WorkflowMetricsListener(meterRegistry);
	}

}
