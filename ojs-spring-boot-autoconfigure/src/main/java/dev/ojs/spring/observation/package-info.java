/**
 * Micrometer observations of OJS jobs: one per enqueue and one per attempt, with the W3C
 * trace context carried in the job's {@code meta} (ojs-distributed-tracing.md §6).
 */
@NullMarked
package dev.ojs.spring.observation;

import org.jspecify.annotations.NullMarked;
