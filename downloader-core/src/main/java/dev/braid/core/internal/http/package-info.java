/**
 * The HTTP layer: one pooled Apache HttpClient 5 per {@code Braid} instance and the streaming
 * exchange the engine reads ranges from.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.http;
