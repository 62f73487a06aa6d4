/**
 * Checking bytes: the block sums kept for a resume, piece hashes, and the units a
 * checksum covers.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.verify;
