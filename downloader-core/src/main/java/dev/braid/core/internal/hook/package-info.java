/**
 * Running hooks: what the queue hands over when a download ends goes to the hooks (a
 * {@link dev.braid.core.DownloadHook}) on threads of their own, each bounded in time.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.hook;
