/**
 * The engine as a whole: {@link dev.braid.core.internal.engine.EngineParts} builds it from a
 * builder's {@link dev.braid.core.internal.engine.EngineConfig} (client, store, threads, queue, hooks,
 * metrics) in the order the parts depend on one another, and closes it. The top of the engine:
 * no other engine package imports it.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.engine;
