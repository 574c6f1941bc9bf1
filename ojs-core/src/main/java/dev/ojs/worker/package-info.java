/**
 * The worker engine, made of single-purpose parts: a queue poller per served queue, the
 * job executor, the completer that writes outcomes in batches, the heartbeater, the rescuer
 * of expired reservations and the pruner, wired by {@link dev.ojs.worker.Worker}.
 */
@NullMarked
package dev.ojs.worker;

import org.jspecify.annotations.NullMarked;
