/**
 * The OJS Admin API (ojs-admin-api.md §5–12) under {@code /ojs/v1/admin}: queues, jobs, bulk
 * operations, dead letters, recurring jobs, workers, statistics and the dashboard's bootstrap,
 * with the write guard that keeps it read-only and same-origin unless configured otherwise.
 */
@NullMarked
package dev.ojs.web.admin;

import org.jspecify.annotations.NullMarked;
