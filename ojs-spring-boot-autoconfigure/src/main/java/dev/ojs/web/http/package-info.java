/**
 * The OJS HTTP binding ({@code ojs-http-binding.md}, {@code openapi.yaml}) on the
 * application's own job tables: producers enqueue, look up and cancel jobs, external
 * workers fetch, heartbeat, ack and nack them on the same engine as {@code @OjsJob}
 * handlers, operators read the health, the manifest and the dead letters.
 */
@NullMarked
package dev.ojs.web.http;

import org.jspecify.annotations.NullMarked;
