/**
 * What the engine asks of a store, and nothing about how one is kept: the queue
 * ({@link dev.braid.store.QueueStore}), the resume records ({@link dev.braid.store.ResumeRecords}),
 * host memory ({@link dev.braid.store.HostKnowledge}), per-host connection grants
 * ({@link dev.braid.store.HostGrants}) and settings, with the value records they carry.
 *
 * <p>The engine ({@code braid-core}) depends on this module only; a store implements it and
 * registers a {@link dev.braid.store.StoreProvider}: {@code braid-state} for SQLite (the embedded
 * default), a server database's module for its URLs. This package depends on the JDK alone.
 */
package dev.braid.store;
