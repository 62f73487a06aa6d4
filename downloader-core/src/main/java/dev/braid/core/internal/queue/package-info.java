/**
 * The queue of a {@code Braid}: {@link dev.braid.core.internal.queue.DownloadQueue} and the
 * download each {@link dev.braid.core.Download} is ({@link dev.braid.core.internal.queue.QueuedDownload},
 * which owns its run's state); the loop thread that starts entries and delivers events
 * ({@link dev.braid.core.internal.queue.SlotLoop}, {@link dev.braid.core.internal.queue.ListenerBus});
 * submissions, runs, removals and the schedule; and what keeps this process and the store in step
 * ({@link dev.braid.core.internal.queue.Heartbeat}, {@link dev.braid.core.internal.queue.ChangeFeed}).
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.queue;
