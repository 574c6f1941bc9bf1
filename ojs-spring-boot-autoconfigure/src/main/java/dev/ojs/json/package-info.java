/**
 * The one JSON view of each resource (job, queue, recurring job, dead-letter group), shared by the
 * HTTP binding, the Admin API, the dashboard and the actuator endpoints. Where two surfaces must
 * differ, the view says how and why in one place.
 */
@NullMarked
package dev.ojs.json;

import org.jspecify.annotations.NullMarked;
