/**
 * The fault-injection harness: worker processes killed and PostgreSQL restarted while
 * jobs run, then a check from the stored jobs and the recorded executions that nothing was
 * lost, run twice or left inconsistent.
 */
@NullMarked
package dev.ojs.bench.chaos;

import org.jspecify.annotations.NullMarked;
