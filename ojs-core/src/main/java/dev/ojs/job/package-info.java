/**
 * The job model: stored jobs, jobs to insert, error history, dead letter filters and
 * statistics, and the {@link dev.ojs.job.JobStore} that applications and operators use.
 */
@NullMarked
package dev.ojs.job;

import org.jspecify.annotations.NullMarked;
