/**
 * Fetching one range: the request with If-Range, the checks a response must pass before any of
 * its bytes reach the file, and the copy loop from the socket into the part file.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.fetch;
