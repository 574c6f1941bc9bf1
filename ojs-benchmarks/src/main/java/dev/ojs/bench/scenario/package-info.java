/**
 * The benchmark scenarios (enqueue, drain, retry, steady state, idle latency, backlog, recurring
 * jobs) and the Spring Boot environment they run in.
 */
@NullMarked
package dev.ojs.bench.scenario;

import org.jspecify.annotations.NullMarked;
