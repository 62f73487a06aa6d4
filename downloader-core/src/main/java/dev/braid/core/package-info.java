/**
 * Braid's public API: the one a batch job, the {@code braid} command and the desktop app all use.
 *
 * <pre>{@code
 * try (Braid braid = Braid.builder().stateDatabase(Path.of("state.db")).build()) {
 *   Download d = braid.start(DownloadRequest.builder("https://example.org/big.iso")
 *       .directory(Path.of("downloads")).connections(8).build());
 *   DownloadResult r = d.result().join();
 * }
 * }</pre>
 *
 * <p>Sub-packages are the engine and are not API, except {@code dev.braid.core.rules}: per-host
 * rules and categories, and {@code dev.braid.core.time}: the engine's time source.
 */
package dev.braid.core;
