package dev.braid.core.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How proxy URLs and variables are read: credentials decoded, variables in curl's order, nothing printed. */
class ProxyPlanTest {
  @Test
  void credentialsArePercentDecodedAfterTheSplitAndNeverPrinted() {
    ProxyPlan plan = ProxyPlan.of("http://al%20ice:p%40ss%3Aw+rd@proxy.example:3128", null);
    ProxyPlan.Proxy p = plan.forTarget("https", "example.org");
    assertEquals("al ice", p.credentials().user());
    assertEquals("p@ss:w+rd", p.credentials().password());
    assertEquals(3128, p.port());
    assertEquals("", ProxyPlan.of("socks5://only-user@h", null).forTarget("http", "x").credentials().password());
    assertNull(ProxyPlan.of("http://h:1", null).forTarget("http", "x").credentials());
    String shown = plan.toString();
    assertTrue(shown.contains("proxy.example:3128") && shown.contains("with credentials"), shown);
    assertFalse(shown.contains("al ice") || shown.contains("p@") || shown.contains("%40") || shown.contains("w+rd"), shown);
  }

  @Test
  void allProxyServesTheSchemesWithoutTheirOwnVariable() {
    ProxyPlan plan = ProxyPlan.fromEnvironment(Map.of("ALL_PROXY", "socks5://u:p@s:1080", "http_proxy", "http://h:8080"));
    assertEquals("h", plan.forTarget("http", "x").host());
    ProxyPlan.Proxy https = plan.forTarget("https", "x");
    assertTrue(https.socks());
    assertEquals("p", https.credentials().password());
    // the address HttpClient is handed for the route finds the proxy, and its credentials, again
    assertEquals(https, plan.socksAt(https.socksAddress()));
    assertNull(ProxyPlan.fromEnvironment(Map.of("all_proxy", " ")).forTarget("http", "x"));
  }
}
