package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.core.FailureKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A download a daemon reports failed exits with the code of its kind, as one failed in process: every kind the daemon names. */
class RemoteExitCodeTest {
  @Test
  void everyKindTheDaemonNamesExitsWithItsDocumentedCode() {
    Map<String, Integer> documented = Map.ofEntries(Map.entry("usage", 2), Map.entry("network", 3),
        Map.entry("http-status", 4), Map.entry("remote-changed", 5), Map.entry("local-io", 6), Map.entry("integrity", 7),
        Map.entry("removed", 8), Map.entry("link-refused", 10), Map.entry("metalink", 11), Map.entry("internal", 1));
    assertEquals(FailureKind.values().length, documented.size(), "every kind has its code");
    documented.forEach((kind, code) -> assertEquals(code,
        RemoteFollow.exitCode(RpcValue.of(Map.of("state", "failed", "errorKind", kind))), kind));
    assertEquals(ExitCode.INTERNAL, RemoteFollow.exitCode(RpcValue.of(Map.of("state", "failed", "errorKind", "a-newer-kind"))));
    assertEquals(ExitCode.OK, RemoteFollow.exitCode(RpcValue.of(Map.of("state", "completed"))));
    assertEquals(ExitCode.INTERRUPTED, RemoteFollow.exitCode(RpcValue.of(Map.of("state", "paused"))));
  }
}
