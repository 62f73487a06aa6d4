package dev.braid.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostMemoryTest {
  @Test
  void anHttp2MemoryIsKeyedApartAndReadBackAsItsHost() {
    HostMemory h2 = new HostMemory(HostMemory.key("h:443", true), 0, 1, 0, 1);
    HostMemory h1 = new HostMemory(HostMemory.key("h:443", false), 0, 8, 0, 1);
    assertEquals("h:443", h1.host());
    assertFalse(h1.host().equals(h2.host()), "the two are remembered apart");
    assertTrue(h2.overHttp2());
    assertFalse(h1.overHttp2());
    assertEquals("h:443", h2.hostPort());
    assertEquals("h:443", h1.hostPort());
  }
}
