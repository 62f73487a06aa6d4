package dev.braid.store.postgres;

import dev.braid.store.HostGrant;
import dev.braid.store.HostGrants;
import java.util.List;

/**
 * Per-host connection grants shared by the fleet ({@link HostGrantLeases}), leased like queue
 * claims: {@link #renew} runs with each queue heartbeat, and a dead worker's grants count for
 * nobody once their lease lapsed.
 */
final class PostgresGrants implements HostGrants {
  private final PostgresStore store;
  private final RoleConnection connection;
  private final long leaseMillis;

  PostgresGrants(PostgresStore store, RoleConnection connection, long leaseMillis) {
    this.store = store;
    this.connection = connection;
    this.leaseMillis = leaseMillis;
  }

  @Override
  public boolean acquire(String host, String owner, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, not " + max);
    }
    return store.call(connection, "take a connection grant for " + host,
        c -> HostGrantLeases.acquire(c, host, owner, 1, max, leaseMillis)) == 1;
  }

  @Override
  public void release(String host, String owner) {
    store.call(connection, "give back a connection grant for " + host, c -> {
      HostGrantLeases.release(c, host, owner, 1);
      return null;
    });
  }

  @Override
  public List<HostGrant> held() {
    return store.call(connection, "read the connection grants", HostGrantLeases::all);
  }

  @Override
  public void renew(String owner) {
    store.call(connection, "renew the connection grants", c -> HostGrantLeases.renew(c, owner, leaseMillis));
  }
}
