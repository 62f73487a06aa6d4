/**
 * The engine's time source, {@link dev.braid.core.time.Ticker}: a package of its own with no
 * imports, so the API that sets it and the engine packages that read it share it without either
 * importing the other.
 */
package dev.braid.core.time;
