package dev.ojs.spring.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.ojs.recurring.RecurringJobSettings;

/**
 * Configuration properties of recurring jobs ({@code @OjsRecurring}, {@code OjsRecurringJobs}).
 * Invalid values fail start-up.
 */
@ConfigurationProperties("ojs.cron")
public class OjsRecurringJobsProperties {

	/**
	 * Whether to enable recurring jobs: the recurring jobs of this application and the evaluator
	 * that enqueues their jobs.
	 */
	private boolean enabled = true;

	/**
	 * Whether this node runs an evaluator; one node at a time evaluates (the holder of the
	 * lease), the others stand by to take over.
	 */
	private boolean evaluate = true;

	/**
	 * Time between evaluations, at least 1s.
	 */
	private Duration interval = RecurringJobSettings.DEFAULT_INTERVAL;

	/**
	 * How long the evaluator's lease lasts without renewal: after a node dies, another takes
	 * over within this long. More than twice the interval.
	 */
	private Duration leaseTtl = RecurringJobSettings.DEFAULT_LEASE_TTL;

	/**
	 * Due recurring jobs read per query.
	 */
	private int batchSize = RecurringJobSettings.DEFAULT_BATCH_SIZE;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isEvaluate() {
		return this.evaluate;
	}

	public void setEvaluate(boolean evaluate) {
		this.evaluate = evaluate;
	}

	public Duration getInterval() {
		return this.interval;
	}

	public void setInterval(Duration interval) {
		this.interval = interval;
	}

	public Duration getLeaseTtl() {
		return this.leaseTtl;
	}

	public void setLeaseTtl(Duration leaseTtl) {
		this.leaseTtl = leaseTtl;
	}

	public int getBatchSize() {
		return this.batchSize;
	}

	public void setBatchSize(int batchSize) {
		this.batchSize = batchSize;
	}

	/** The evaluator's settings for node {@code nodeId}; validated. */
	RecurringJobSettings settings(String nodeId) {
		return new RecurringJobSettings(nodeId, this.interval, this.leaseTtl, this.batchSize);
	}

}
