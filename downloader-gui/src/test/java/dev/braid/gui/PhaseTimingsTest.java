package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhaseTimingsTest {
  @Test
  void phasesShowTlsOnlyWhenThereWasAHandshake() {
    PhaseTimings plain = new PhaseTimings(Duration.ofNanos(1_200_000), 8, Duration.ofMillis(4), 0, 0, Duration.ZERO, 40, 0.8,
        Duration.ofMillis(35), 1);
    assertEquals("DNS 1.2 ms · connect 4.0 ms (8 conn.) · TLS — · first byte 35 ms", plain.phases());
    assertEquals("40, 80% on reused connections, 1 retried", plain.requestsLine());
    PhaseTimings tls = new PhaseTimings(Duration.ZERO, 4, Duration.ofMillis(2), 4, 3, Duration.ofMillis(60), 4, 0, Duration.ofMillis(9), 0);
    assertEquals("DNS 0.0 ms · connect 2.0 ms (4 conn.) · TLS 60 ms (3/4 resumed) · first byte 9.0 ms", tls.phases());
    assertEquals("—", PhaseTimings.NONE.phases());
    assertEquals("—", PhaseTimings.NONE.requestsLine());
  }
}
