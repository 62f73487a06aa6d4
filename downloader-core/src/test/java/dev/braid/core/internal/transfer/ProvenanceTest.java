package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.store.RemoteIdentity;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which mirror wrote which bytes: later writes replace earlier ones, verified ranges are forgotten. */
class ProvenanceTest {
  private static MirrorSet.Mirror mirror(String url) {
    return new MirrorSet.Mirror(new RangeSource(new RemoteIdentity(url, 1000, null, null, true), null));
  }

  @Test
  void theLatestWriterOfEachByteIsBlamed() {
    MirrorSet.Mirror a = mirror("http://a/");
    MirrorSet.Mirror b = mirror("http://b/");
    Provenance p = new Provenance();
    p.writes(0, 500, a);
    p.writes(500, 1000, b);
    assertEquals(Set.of(a, b), p.of(400, 600));
    assertEquals(Set.of(a), p.of(0, 500));
    // bytes 100-200 fetched again from b
    p.writes(100, 200, b);
    assertEquals(Set.of(b), p.of(100, 200));
    assertEquals(Set.of(a), p.of(0, 100));
    assertEquals(Set.of(a), p.of(200, 500));
    p.forget(0, 1000);
    assertEquals(Set.of(), p.of(0, 1000));
  }

  @Test
  void forgettingTheMiddleOfARunKeepsBothEnds() {
    MirrorSet.Mirror a = mirror("http://a/");
    Provenance p = new Provenance();
    p.writes(0, 1000, a);
    p.forget(300, 600);
    assertEquals(Set.of(), p.of(300, 600));
    assertEquals(List.of(a), List.copyOf(p.of(0, 300)));
    assertEquals(List.of(a), List.copyOf(p.of(600, 1000)));
  }
}
