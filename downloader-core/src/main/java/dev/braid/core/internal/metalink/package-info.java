/**
 * Fetching a Metalink document over the engine's client; the document is read by
 * {@link dev.braid.core.Metalink#parse}.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.metalink;
