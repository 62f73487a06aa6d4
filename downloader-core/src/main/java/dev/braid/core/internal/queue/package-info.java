/**
 * The parts of a {@code Braid}'s queue: the loop thread that starts entries and delivers events
 * ({@link dev.braid.core.internal.queue.SlotLoop}, {@link dev.braid.core.internal.queue.ListenerBus}), the handles
 * ({@link dev.braid.core.internal.queue.HandleMap}), and what keeps this process and the store in step
 * ({@link dev.braid.core.internal.queue.Heartbeat}, {@link dev.braid.core.internal.queue.ChangeFeed}). Not API:
 * public only because the queue in {@code dev.braid.core} uses them.
 */
package dev.braid.core.internal.queue;
