package dev.braid.state;

import dev.braid.store.StoreException;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.sqlite.JDBC;

/**
 * Opens the store's connections: the database's folder and files owner-only ({@link OwnerOnlyFiles}), the driver, the pragmas of every
 * connection, the schema brought up to date (by the writer's), and patience with another process
 * opening it too.
 *
 * <p>Locking: none; it runs before the store exists, and the driver's set-up is guarded by class initialisation.
 */
final class DatabaseOpener {
  /** As long as the busy timeout: how long an open waits for another process that holds the database. */
  private static final long OPEN_PATIENCE_NANOS = 5_000_000_000L;
  private static final String OPTIONS =
      "?journal_mode=WAL&synchronous=NORMAL&busy_timeout=5000&transaction_mode=IMMEDIATE&foreign_keys=true"
          // inserts return their ids (RETURNING); with generated keys on, the driver matched
          // every update's SQL against a regular expression to see whether it was an insert
          + "&jdbc.get_generated_keys=false";

  private DatabaseOpener() {}

  /** A migrated connection to the database at {@code absolute}, creating it if needed. */
  static Connection open(Path absolute) {
    return open(absolute, true);
  }

  /**
   * A second connection to the database {@link #open} brought up to date, for reads only
   * ({@code query_only}: a write through it fails instead of bypassing the writer's lock).
   */
  static Connection openReader(Path absolute) {
    return open(absolute, false);
  }

  private static Connection open(Path absolute, boolean writer) {
    if (writer) {
      // the writer opens first, once per store: the files are made or tightened before SQLite sees them
      try {
        OwnerOnlyFiles.prepare(absolute, System.err);
      } catch (IOException e) {
        throw new StoreException("cannot create state database " + absolute + " readable by its owner only: " + e, e);
      }
    }
    Driver.load();
    long deadline = System.nanoTime() + OPEN_PATIENCE_NANOS;
    while (true) {
      Connection c = null;
      try {
        c = JDBC.createConnection("jdbc:sqlite:" + absolute + OPTIONS, new Properties());
        if (writer) {
          Migrations.apply(c);
        } else {
          try (var s = c.createStatement()) {
            s.execute("PRAGMA query_only = ON");
          }
        }
        return c;
      } catch (SQLException e) {
        Statements.closeQuietly(c);
        if (!SqliteErrors.busy(e) || System.nanoTime() > deadline) {
          throw new StoreException("cannot open state database " + absolute + ": " + SqliteErrors.describe(e), e);
        }
      }
      // the switch to WAL at a new database's first open does not wait on the busy timeout: a
      // second process opening it at that instant got SQLITE_BUSY at once, so try again
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while opening state database " + absolute, e);
      }
    }
  }

  /** The driver's set-up now ({@link Store#loadDriver}). */
  static void loadDriver() {
    Driver.load();
  }

  /**
   * The driver's once-per-process set-up, run by this class's initialisation: an open that comes
   * while {@link Store#loadDriver} is still at work waits for it instead of repeating it.
   */
  private static final class Driver {
    static {
      try {
        // the driver itself, here and in open(): DriverManager would first look for every
        // java.sql.Driver on the class path (a ServiceLoader scan, ~20 ms of a start-up)
        JDBC.createConnection("jdbc:sqlite::memory:", new Properties()).close();
      } catch (SQLException | RuntimeException | LinkageError e) {
        // open() meets the same problem and reports it with the database's name
      }
    }

    static void load() {
      // the work is in the static initialiser
    }
  }
}
