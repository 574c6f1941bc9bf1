/**
 * The benchmark program: command-line options, the benchmark database, latency, CPU,
 * WAL and JFR measurements, and the result tables and targets.
 */
@NullMarked
package dev.ojs.bench;

import org.jspecify.annotations.NullMarked;
