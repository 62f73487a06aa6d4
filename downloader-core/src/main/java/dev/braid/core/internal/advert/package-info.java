/**
 * What a server advertises about its file in a response head, read from the probe's response: a
 * digest of the whole file (RFC 9530's {@code Repr-Digest} and {@code Content-Digest}, RFC 3230's
 * {@code Digest}) and other places to get it (RFC 6249's {@code Link} duplicates and a describing
 * Metalink). Parsing only: which of it a download uses is the transfer's decision.
 *
 * <p>Internal: not API. Of the API, only {@code Braid} and {@code BraidBuilder}, where the engine
 * is built, may name an engine package, and no face does ({@code LayersTest} and each face's
 * {@code NoEngineInternalsTest} keep both).
 */
package dev.braid.core.internal.advert;
