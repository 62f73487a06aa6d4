package dev.braid.store.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.HostGrant;
import dev.braid.store.HostGrants;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import dev.braid.store.StateStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a store keeps beside the queue and the records: {@link HostKnowledge}, the
 * {@link HostGrants} of one store (whether other processes share them is the store's own: the
 * SQLite store keeps them per process, a server database for the fleet) and the settings.
 */
public interface HostsAndSettingsContract extends StoreContract {
  @Test
  default void hostMemoryIsReplacedWholeAndReadByTheNextProcess() throws Exception {
    StateStore store = stores().open();
    HostKnowledge hosts = store.hosts();
    assertTrue(hosts.host("h:80").isEmpty());
    hosts.remember(new HostMemory("h:80", 0, 8, 1e6, 1));
    hosts.remember(new HostMemory("h:80", 4, 4, 2.5e6, 2));
    hosts.remember(new HostMemory("h:80 h2", 0, 1, 9e6, 3));
    store.close();
    HostKnowledge later = stores().another(store).hosts();
    assertEquals(new HostMemory("h:80", 4, 4, 2.5e6, 2), later.host("h:80").orElseThrow());
    assertEquals(new HostMemory("h:80 h2", 0, 1, 9e6, 3), later.host("h:80 h2").orElseThrow());
    assertTrue(later.host("h:81").isEmpty());
  }

  @Test
  default void protocolMemoryIsKeptPerHostAndVersionInNameOrder() throws Exception {
    StateStore store = stores().open();
    HostKnowledge hosts = store.hosts();
    assertTrue(hosts.protocols("h:443").isEmpty());
    hosts.remember(new ProtocolMemory("h:443", "http/1.1", true, 1e6, 1));
    hosts.remember(new ProtocolMemory("h:443", "h2", true, 3e6, 2));
    hosts.remember(new ProtocolMemory("h:443", "h2", false, 0, 3));
    hosts.remember(new ProtocolMemory("g:443", "h2", true, 9e6, 4));
    // a host's connection memory is replaced whole; its protocol memory must survive that
    hosts.remember(new HostMemory("h:443", 0, 8, 1e6, 5));
    assertEquals(List.of(new ProtocolMemory("h:443", "h2", false, 0, 3), new ProtocolMemory("h:443", "http/1.1", true, 1e6, 1)),
        stores().another(store).hosts().protocols("h:443"));
  }

  @Test
  default void theHostsAreListedMostRecentFirstUpToTheLimit() throws Exception {
    StateStore store = stores().open();
    HostKnowledge hosts = store.hosts();
    assertEquals(List.of(), hosts.recent(10));
    hosts.remember(new HostMemory("a:80", 0, 8, 1e6, 30));
    hosts.remember(new HostMemory("b:80", 2, 2, 5e5, 10));
    hosts.remember(new HostMemory("c:443 h2", 0, 1, 9e6, 20));
    hosts.remember(new HostMemory("b:80", 3, 3, 6e5, 40));
    store.close();
    HostKnowledge later = stores().another(store).hosts();
    assertEquals(List.of(new HostMemory("b:80", 3, 3, 6e5, 40), new HostMemory("a:80", 0, 8, 1e6, 30),
        new HostMemory("c:443 h2", 0, 1, 9e6, 20)), later.recent(10));
    assertEquals(List.of(new HostMemory("b:80", 3, 3, 6e5, 40)), later.recent(1));
    assertThrows(IllegalArgumentException.class, () -> later.recent(0));
  }

  @Test
  default void theGrantsHeldAreListedByHostThenOwner() throws Exception {
    HostGrants g = stores().open().grants();
    assertEquals(List.of(), g.held());
    assertTrue(g.acquire("h:80", B, 4));
    assertTrue(g.acquire("h:80", A, 4));
    assertTrue(g.acquire("h:80", A, 4));
    assertTrue(g.acquire("a:80", B, 4));
    g.release("a:80", B);
    assertEquals(List.of(new HostGrant("h:80", A, 2), new HostGrant("h:80", B, 1)), g.held(),
        "a host whose grants all came back is not listed");
  }

  @Test
  default void hostGrantsCapAHostAcrossOwnersAndComeBackOnRelease() throws Exception {
    HostGrants g = stores().open().grants();
    assertTrue(g.acquire("h:80", A, 2));
    assertTrue(g.acquire("h:80", B, 2));
    assertFalse(g.acquire("h:80", A, 2), "the cap counts every owner's grants");
    assertTrue(g.acquire("other:80", A, 2), "per host");
    g.release("h:80", "nobody.example:3:3");
    assertFalse(g.acquire("h:80", A, 2), "releasing a grant one does not hold gives nothing back");
    g.release("h:80", B);
    g.renew(A);
    assertTrue(g.acquire("h:80", A, 2));
    assertTrue(g.acquire("h:80", B, 3), "a larger cap allows one more");
    assertFalse(g.acquire("h:80", B, 3), "but not two");
    g.release("h:80", A);
    g.release("h:80", A);
    g.release("h:80", A);
    assertTrue(g.acquire("h:80", A, 2), "A's two grants came back");
    assertFalse(g.acquire("h:80", A, 2), "its third release gave back one of B's");
    assertThrows(IllegalArgumentException.class, () -> g.acquire("h:80", A, 0));
  }

  @Test
  default void aSettingIsReplacedRemovedAndReadByTheNextProcess() throws Exception {
    StateStore store = stores().open();
    assertEquals(Map.of(), store.settings());
    store.saveSetting("window.width", "800");
    store.saveSetting("window.width", "1024");
    store.saveSetting("theme", "dark");
    store.saveSetting("gone", "soon");
    store.saveSetting("gone", null);
    store.saveSetting("never", null);
    store.close();
    assertEquals(Map.of("window.width", "1024", "theme", "dark"), stores().another(store).settings());
  }
}
