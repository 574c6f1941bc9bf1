/**
 * Recurring jobs (ojs-cron.md): the recurring job model, the expression and time zone rules, and
 * the evaluator that turns each due occurrence into one ordinary job, on every node but with one
 * evaluator at a time. Plain Java: it reaches storage only through {@link dev.ojs.recurring.RecurringJobStore}.
 */
@NullMarked
package dev.ojs.recurring;

import org.jspecify.annotations.NullMarked;
