package dev.braid.store;

import java.util.List;

/**
 * Connection grants per host, so that a cap on the connections to one host holds across every
 * process sharing the store: a connection is opened only under a grant, and given back when it
 * closes. A grant is held by an owner (a {@link ProcessOwner} name) under the same lease as its
 * queue claims: renewed by {@link #renew}, and once the owner is gone (its lease lapsed) its
 * grants count no more, so a dead process cannot starve a host.
 *
 * <p>Called from connection worker threads (acquire, release) and the queue's heartbeat
 * (renew), concurrently; each call is atomic.
 */
public interface HostGrants {
  /**
   * Takes one grant for {@code host} ({@code host:port}) for {@code owner} if fewer than
   * {@code max} are held by all owners together, counting only grants whose lease runs; whether
   * it was granted. Atomic: two owners racing for the last grant do not both get it.
   *
   * @param host the host, as {@code host:port}
   * @param owner the owner taking the grant
   * @param max the most grants all owners may hold for {@code host}
   * @return whether {@code owner} got the grant
   * @throws IllegalArgumentException when {@code max} is below 1
   */
  boolean acquire(String host, String owner, int max);

  /**
   * Gives back one of {@code owner}'s grants for {@code host}; nothing when it holds none.
   *
   * @param host the host, as {@code host:port}
   * @param owner the owner giving the grant back
   */
  void release(String host, String owner);

  /**
   * Renews the lease of every grant {@code owner} holds (each heartbeat of its queue).
   *
   * @param owner the owner whose grants are renewed
   */
  void renew(String owner);

  /**
   * {@return the grants held now, one per host and owner with at least one connection, by host
   * then owner} Lapsed grants (an owner gone) are not listed: they count for nobody.
   */
  List<HostGrant> held();
}
