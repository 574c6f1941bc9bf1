/**
 * Recurring jobs (ojs-cron.md): the schedule model, the expression and time zone rules, and
 * the evaluator that turns each due tick into one ordinary job, on every node but with one
 * evaluator at a time. Plain Java: it reaches storage only through {@link dev.ojs.cron.CronStore}.
 */
@NullMarked
package dev.ojs.cron;

import org.jspecify.annotations.NullMarked;
