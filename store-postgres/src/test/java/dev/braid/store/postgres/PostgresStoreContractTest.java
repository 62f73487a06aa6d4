package dev.braid.store.postgres;

import dev.braid.store.contract.HostsAndSettingsContract;
import dev.braid.store.contract.QueueClaimsContract;
import dev.braid.store.contract.QueueEntriesContract;
import dev.braid.store.contract.QueueFeedContract;
import dev.braid.store.contract.QueueHeadersContract;
import dev.braid.store.contract.ResumeRecordsContract;
import dev.braid.store.contract.StoreFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract (store-api's dev.braid.store.contract) against the PostgreSQL store on a
 * real server, opened through its URL as a worker opens it (the default lease). The run's one
 * cluster ({@link OneCluster}) and one database for the class, emptied for each test: a new
 * database per test cost 0.4 s of the ~1 s a test took on a loaded machine.
 */
@ExtendWith(OneCluster.class)
class PostgresStoreContractTest implements QueueEntriesContract, QueueClaimsContract, QueueFeedContract, QueueHeadersContract,
    ResumeRecordsContract, HostsAndSettingsContract {
  private static PostgresCluster cluster;
  private static String database;
  private static Connection admin;
  private final StoreFixture stores = new StoreFixture(PostgresStoreContractTest::emptied);

  @BeforeAll
  static void newDatabase(PostgresCluster shared) throws Exception {
    cluster = shared;
    database = cluster.newDatabase();
    PostgresStore.open(cluster.locationWithPassword(database)).close();
    admin = cluster.connect(database);
  }

  @AfterAll
  static void closeAdmin() throws SQLException {
    admin.close();
  }

  /** The class's database with every row of every table gone and ids counted from 1 again (its schema's version stays). */
  private static String emptied() throws SQLException {
    try (Statement s = admin.createStatement()) {
      List<String> tables = names(s, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'braid_schema'");
      s.execute("TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE");
    }
    return cluster.locationWithPassword(database);
  }

  private static List<String> names(Statement s, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Override
  public StoreFixture stores() {
    return stores;
  }
}
