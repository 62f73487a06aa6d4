/**
 * The SQLite store: the only source of truth for resume. Downloads, their segments and progress,
 * kept in one database file in WAL mode with one writer connection per process.
 *
 * <p>Nothing here knows about HTTP; the engine in {@code dev.braid.core} records what it learned
 * and what is durably on disk, and reads it back on resume.
 */
package dev.braid.state;
