/**
 * The local side: the {@code name.part} file written at positions by many workers, its durable
 * commit and rename, and safe file names. Internal: not part of the public API.
 */
package dev.braid.core.internal.io;
