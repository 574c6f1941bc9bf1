/**
 * Peers measured side by side with the starter: db-scheduler and JobRunr (open-source
 * edition), each on its own tables in the benchmark database, running the drain, steady,
 * batch-enqueue and (where the peer can) retry scenarios.
 */
@NullMarked
package dev.ojs.bench.peer;

import org.jspecify.annotations.NullMarked;
