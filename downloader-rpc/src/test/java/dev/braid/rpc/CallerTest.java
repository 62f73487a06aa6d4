package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Whose guesses count together: an IPv4 address, an IPv6 /64 (one machine is handed a whole one). */
class CallerTest {
  private static String of(String address, int port) throws Exception {
    return Caller.at(new InetSocketAddress(InetAddress.getByName(address), port)).address();
  }

  @Test
  void anIpv6Slash64IsOneClientAndAnIpv4AddressIsOne() throws Exception {
    assertEquals(of("2001:db8:1:2::1", 1000), of("2001:db8:1:2:ffff:ffff:ffff:fffe", 2000), "one /64, any port");
    assertNotEquals(of("2001:db8:1:2::1", 1000), of("2001:db8:1:3::1", 1000));
    assertEquals(of("192.0.2.7", 1000), of("192.0.2.7", 2000));
    assertNotEquals(of("192.0.2.7", 1000), of("192.0.2.8", 1000));
    assertEquals(of("192.0.2.7", 1), of("::ffff:192.0.2.7", 1), "an IPv4 client of a dual-stack listener is itself");
  }
}
