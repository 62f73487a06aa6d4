/**
 * The local side: the {@code name.part} file written at positions by many workers, its durable
 * commit and rename, and the file name a server's answer gives.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.io;
