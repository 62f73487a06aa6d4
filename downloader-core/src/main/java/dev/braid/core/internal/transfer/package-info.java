/**
 * Running one download: the driver thread that probes, plans, checkpoints and finishes, and the
 * workers that fetch segments and split the largest remainder when idle.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.transfer;
