package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import dev.braid.state.Store;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionBudgetRulesTest {
  @TempDir Path dir;

  @Test
  void aRulesPerHostCapReplacesTheCapOfAllHostsForItsHostsOnly() {
    // the grants of a real (SQLite) store: this process's, as a single braid's are
    Store store = Store.open(dir.resolve("state.db"));
    Rules rules = Rules.of(List.of(HostRule.builder(".slow.example").maxConnectionsPerHost(2).build(),
        HostRule.builder("[::1]").maxConnectionsPerHost(1).build()), List.of());
    ConnectionBudget budget = new ConnectionBudget(20, 5, rules, store.grants(), "this-process");
    assertEquals(2, budget.available("dl.slow.example:443"));
    assertTrue(budget.tryAcquire("dl.slow.example:443"));
    assertTrue(budget.tryAcquire("dl.slow.example:443"));
    assertFalse(budget.tryAcquire("dl.slow.example:443"));
    for (int i = 0; i < 5; i++) {
      assertTrue(budget.tryAcquire("other.example:443"));
    }
    assertFalse(budget.tryAcquire("other.example:443"));
    assertTrue(budget.tryAcquire("[::1]:8080"));
    assertFalse(budget.tryAcquire("[::1]:8080"));
    budget.release("dl.slow.example:443");
    assertTrue(budget.tryAcquire("dl.slow.example:443"));
    assertEquals(8, budget.inUse());
    store.close();
  }
}
