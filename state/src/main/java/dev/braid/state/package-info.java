/**
 * The SQLite store, the embedded default implementation of {@code dev.braid.store}: downloads,
 * their segments and progress, the queue and host memory, kept in one database file in WAL mode
 * with one writer connection per process. {@link dev.braid.state.SqliteStoreProvider} opens it
 * for a plain path.
 *
 * <p>Nothing here knows about HTTP; the engine in {@code dev.braid.core} records what it learned
 * and what is durably on disk, and reads it back on resume.
 */
package dev.braid.state;
