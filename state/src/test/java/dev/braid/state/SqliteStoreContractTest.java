package dev.braid.state;

import dev.braid.store.contract.HostsAndSettingsContract;
import dev.braid.store.contract.QueueClaimsContract;
import dev.braid.store.contract.QueueEntriesContract;
import dev.braid.store.contract.QueueFeedContract;
import dev.braid.store.contract.QueueHeadersContract;
import dev.braid.store.contract.ResumeRecordsContract;
import dev.braid.store.contract.StoreFixture;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** The store contract (store-api's dev.braid.store.contract) against the SQLite store: a new database file per store. */
class SqliteStoreContractTest implements QueueEntriesContract, QueueClaimsContract, QueueFeedContract, QueueHeadersContract,
    ResumeRecordsContract, HostsAndSettingsContract {
  @TempDir Path dir;
  private final AtomicInteger files = new AtomicInteger();
  private final StoreFixture stores = new StoreFixture(() -> dir.resolve("store-" + files.incrementAndGet() + ".db").toString());

  @Override
  public StoreFixture stores() {
    return stores;
  }
}
