/**
 * Braid's public API: the one a batch job, the {@code braid} command and the desktop app all use.
 *
 * <pre>{@code
 * try (Braid braid = Braid.builder().stateDatabase(Path.of("state.db")).build()) {
 *   Download d = braid.submit(DownloadRequest.builder("https://example.org/big.iso")
 *       .directory(Path.of("downloads")).connections(8).build());
 *   DownloadResult r = d.result().join();
 * }
 * }</pre>
 *
 * <p>The API is this package and {@code dev.braid.core.rules} (per-host rules and categories) and {@code dev.braid.core.time}
 * (the engine's time source, a package of its own that imports nothing).
 * The engine is below it, in {@code dev.braid.core.internal.*}, which is not API: of this
 * package, only {@link Braid} and {@link BraidBuilder}, where the engine is built, name it; the
 * engine takes the values, handles and exceptions it needs from here.
 */
package dev.braid.core;
