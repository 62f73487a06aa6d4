package dev.braid.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Where the password comes from, that it never shows, and that each source logs in to a real server. */
@ExtendWith(OneCluster.class)
class PostgresLocationTest {
  private static PostgresCluster cluster;
  private static String database;

  @BeforeAll
  static void newDatabase(PostgresCluster shared) throws Exception {
    cluster = shared;
    database = cluster.newDatabase();
  }

  @Test
  void theLocationBecomesTheDriversUrlAndPropertiesAndShowsNoPassword() {
    PostgresLocation l = PostgresLocation.parse("postgresql://db.example:6543/queue?user=worker&password=s3cr%40t&sslmode=require", null);
    assertEquals("jdbc:postgresql://db.example:6543/queue", l.jdbcUrl());
    assertEquals("s3cr@t", l.properties().getProperty("password"));
    assertEquals("require", l.properties().getProperty("sslmode"));
    assertEquals("worker", l.user());
    assertEquals("postgresql://db.example:6543/queue?user=worker&sslmode=require", l.toString());
    assertFalse(l.toString().contains("s3cr"));
  }

  @Test
  void theUrlsPasswordComesBeforePgpasswordWhichComesBeforeThePgpassFile() {
    assertEquals("url", PostgresLocation.parse("postgresql://h/d?user=u&password=url", "env").properties().getProperty("password"));
    assertEquals("info", PostgresLocation.parse("postgres://u:info@h/d", "env").properties().getProperty("password"));
    assertEquals("env", PostgresLocation.parse("postgresql://h/d?user=u", "env").properties().getProperty("password"));
    // none given: the driver looks in the pgpass file itself
    assertNull(PostgresLocation.parse("postgresql://h/d?user=u", null).properties().getProperty("password"));
    assertEquals(5432, Integer.parseInt(PostgresLocation.parse("postgresql://h/d?user=u", null).jdbcUrl().replaceAll(".*:(\\d+)/.*", "$1")));
  }

  @Test
  void aBadLocationIsRefusedWithAMessageThatDoesNotQuoteIt() {
    for (String bad : new String[] {"postgresql:///d?user=u&password=hunter2", "postgresql://h/?user=u&password=hunter2",
        "postgresql://h/d?password=hunter2", "postgresql://h/d e?user=u&password=hunter2"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse(bad, null), bad);
      assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }
  }

  @Test
  void aBadLocationFailsToOpenAsAStoreFailureWithoutThePassword() {
    StoreException e = assertThrows(StoreException.class,
        () -> PostgresStore.open("postgresql://127.0.0.1:1/d?user=u&lease=1&password=hunter2"));
    assertTrue(e.getMessage().contains("lease=1"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    StoreException refused = assertThrows(StoreException.class,
        () -> PostgresStore.open("postgresql://127.0.0.1:1/d?user=u&password=hunter2"));
    assertFalse(refused.getMessage().contains("hunter2"), refused.getMessage());
  }

  @Test
  void eachPasswordSourceLogsIn(@TempDir Path dir) throws Exception {
    try (Connection c = RoleConnection.connect(PostgresLocation.parse(cluster.locationWithPassword(database), null))) {
      assertTrue(c.isValid(5));
    }
    try (Connection c = RoleConnection.connect(PostgresLocation.parse(cluster.location(database), PostgresCluster.PASSWORD))) {
      assertTrue(c.isValid(5));
    }
    Path pgpass = dir.resolve("pgpass");
    Files.writeString(pgpass, "127.0.0.1:" + cluster.port() + ":*:" + PostgresCluster.USER + ":" + PostgresCluster.PASSWORD + "\n");
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
    // the driver's own pgpass look-up (PGPASSFILE, or this property, or ~/.pgpass)
    System.setProperty("org.postgresql.pgpassfile", pgpass.toString());
    try (Connection c = RoleConnection.connect(PostgresLocation.parse(cluster.location(database), null))) {
      assertTrue(c.isValid(5));
    } finally {
      System.clearProperty("org.postgresql.pgpassfile");
    }
  }

  @Test
  void aWrongPasswordFailsWithoutShowingIt() {
    SQLException e = assertThrows(SQLException.class, () -> RoleConnection.connect(
        PostgresLocation.parse(cluster.location(database) + "&password=wrong-guess-42", null)));
    assertTrue(e.getMessage().contains("password authentication failed"), e.getMessage());
    assertFalse(e.getMessage().contains("wrong-guess-42"), e.getMessage());
  }
}
