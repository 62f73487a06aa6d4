/**
 * The plan of one download: which byte ranges exist, which worker owns each, how far each got,
 * and how an idle worker gets work by splitting the largest remainder.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.plan;
