/**
 * The store on PostgreSQL, for a fleet of braid workers sharing one queue: entries claimed with
 * {@code SELECT ... FOR UPDATE SKIP LOCKED} and held by leases their worker's heartbeat renews,
 * completions recorded once, and per-host connection grants leased per worker.
 */
package dev.braid.store.postgres;
