package dev.braid.store.postgres;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for a test class: Debian's {@code postgresql} package (installed
 * through {@code testenv/require-packages.sh} when missing), {@code initdb} into a temporary
 * folder, the server on a free loopback port with its unix socket in that folder. The server
 * refuses to run as root, so as root the folder is given to the {@code postgres} user and every
 * PostgreSQL program runs as that user through {@code setpriv} (which execs, so the process this
 * class holds is the server itself). Password authentication (scram) over TCP, as a real
 * deployment has. {@link #close()} stops the server and deletes the folder.
 */
public final class PostgresCluster implements AutoCloseable {
  /** The superuser's name and password: a test cluster's, on loopback only. */
  public static final String USER = "braid";
  public static final String PASSWORD = "test-only-secret";

  private static final long READY_TIMEOUT_MILLIS = 30_000;
  private static final long INSTALL_TIMEOUT_SECONDS = 600;
  private static final int START_ATTEMPTS = 3;

  private final Path root;
  private final Path bin;
  private final Process server;
  private final int port;
  private final AtomicInteger databases = new AtomicInteger();

  private PostgresCluster(Path root, Path bin, Process server, int port) {
    this.root = root;
    this.bin = bin;
    this.server = server;
    this.port = port;
  }

  /** Installs the package if needed, creates the cluster and starts its server; returns once it accepts logins. */
  public static PostgresCluster start() throws IOException, InterruptedException {
    requirePackage();
    Path bin = binaries();
    Path root = Files.createTempDirectory("braid-pg-", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    try {
      Path data = root.resolve("data");
      Path pwfile = root.resolve("pwfile");
      Files.writeString(pwfile, PASSWORD + "\n", StandardCharsets.UTF_8);
      giveToPostgres(root);
      giveToPostgres(pwfile);
      run(root, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + pwfile,
          "--auth-host=scram-sha-256", "--auth-local=peer", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"));
      String failure = "";
      for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
        int port = freePort();
        Path log = root.resolve("server-" + attempt + ".log");
        // fsync off: a test cluster's durability is not under test, and the machine is shared
        List<String> cmd = asPostgres(List.of(bin.resolve("postgres").toString(), "-D", data.toString(),
            "-p", Integer.toString(port), "-k", root.toString(), "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
            "-c", "max_connections=200", "-c", "shared_buffers=32MB"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PostgresCluster cluster = new PostgresCluster(root, bin, p, port);
        if (cluster.awaitReady()) {
          return cluster;
        }
        cluster.stopServer();
        failure = Files.readString(log, StandardCharsets.UTF_8);
        // a port taken between freePort() and the server's bind is worth another try; anything else is not
        if (!failure.contains("could not bind") && !failure.contains("in use")) {
          break;
        }
      }
      throw new IOException("PostgreSQL did not start:\n" + failure);
    } catch (IOException | RuntimeException | InterruptedException e) {
      deleteTree(root);
      throw e;
    }
  }

  /** The server's loopback port. */
  public int port() {
    return port;
  }

  /** A new, empty database of this cluster; returns its name. */
  public String newDatabase() throws SQLException {
    String name = "braid_test_" + databases.incrementAndGet();
    try (Connection c = admin(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return name;
  }

  /** A store location for {@code database} without its password (it comes from elsewhere: PGPASSWORD, a pgpass file). */
  public String location(String database) {
    return "postgresql://127.0.0.1:" + port + "/" + database + "?user=" + USER;
  }

  /** A store location for {@code database} that carries the password. */
  public String locationWithPassword(String database) {
    return location(database) + "&password=" + PASSWORD;
  }

  /** A plain JDBC connection to {@code database}, for a test to look at the tables. */
  public Connection connect(String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", USER);
    p.setProperty("password", PASSWORD);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, p);
  }

  private Connection admin() throws SQLException {
    return connect("postgres");
  }

  /** Stops the server (fast shutdown: open sessions are ended) and deletes the cluster. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      stopServer();
    } finally {
      deleteTree(root);
    }
  }

  private void stopServer() throws IOException, InterruptedException {
    if (server.isAlive()) {
      // SIGINT is PostgreSQL's fast shutdown; the JDK's destroy() would send SIGTERM, the smart
      // shutdown, which waits for every client to disconnect
      new ProcessBuilder("kill", "-INT", Long.toString(server.pid())).inheritIO().start().waitFor();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Waits until a login succeeds; false if the server exited or the time ran out. */
  private boolean awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT_MILLIS * 1_000_000;
    while (System.nanoTime() < deadline && server.isAlive()) {
      try (Connection c = admin()) {
        return true;
      } catch (SQLException e) {
        // not accepting yet (refused, or "the database system is starting up")
        Thread.sleep(50);
      }
    }
    return false;
  }

  private static void requirePackage() throws IOException, InterruptedException {
    Path script = Path.of(System.getProperty("braid.testenv", "../testenv"), "require-packages.sh");
    if (!Files.isRegularFile(script)) {
      throw new IOException("missing " + script + " (the surefire property braid.testenv names the repository's testenv folder)");
    }
    Path log = Files.createTempFile("braid-require-packages-", ".log");
    try {
      Process p = new ProcessBuilder("bash", script.toString(), "postgresql").redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!p.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new IOException("installing postgresql took over " + INSTALL_TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) {
        throw new IOException("the PostgreSQL tests need the postgresql package: "
            + Files.readString(log, StandardCharsets.UTF_8).strip());
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** The newest installed major version's programs (/usr/lib/postgresql/N/bin). */
  private static Path binaries() throws IOException {
    Path base = Path.of("/usr/lib/postgresql");
    try (Stream<Path> versions = Files.list(base)) {
      return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
          .max(Comparator.comparingInt(PostgresCluster::major))
          .orElseThrow(() -> new IOException("no PostgreSQL server programs under " + base));
    }
  }

  private static int major(Path bin) {
    try {
      return Integer.parseInt(bin.getParent().getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static List<String> asPostgres(List<String> cmd) {
    if (!root()) {
      return cmd;
    }
    List<String> out = new ArrayList<>(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"));
    out.addAll(cmd);
    return out;
  }

  private static void giveToPostgres(Path p) throws IOException {
    if (root()) {
      UserPrincipalLookupService users = p.getFileSystem().getUserPrincipalLookupService();
      Files.setOwner(p, users.lookupPrincipalByName("postgres"));
    }
  }

  private static void run(Path root, List<String> cmd) throws IOException, InterruptedException {
    Path log = root.resolve("initdb.log");
    Process p = new ProcessBuilder(asPostgres(cmd)).directory(root.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + " failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
