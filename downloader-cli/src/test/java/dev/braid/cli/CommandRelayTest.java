package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.SecretFile;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CommandRelay} in a real {@code braid daemon} process, driven by real {@code braid}
 * processes and, for what no honest client sends, by hand-made frames on its socket: a relayed
 * command's relative paths are the client's, the client loads no parser, JSON or engine, and
 * another user, another command or a broken hello runs nothing in the daemon.
 */
class CommandRelayTest {
  private static final Content ONE = Content.random(300_000, 41);

  @TempDir static Path work;
  private static Path db;
  private static Path downloads;
  private static TestServer server;
  private static RpcDaemon daemon;

  @BeforeAll
  static void startDaemon() throws Exception {
    db = work.resolve("state.db");
    downloads = Files.createDirectories(work.resolve("downloads"));
    server = TestServer.start();
    server.serve("/one.bin", ONE).etag("\"one\"");
    // no --rpc-secret: the daemon makes its secret file, which local clients read, as a user's does
    daemon = RpcDaemon.start(work, db, downloads, null);
  }

  @AfterAll
  static void stop() throws Exception {
    if (daemon != null) {
      daemon.process.terminate().assertExit(ExitCode.OK);
    }
    if (server != null) {
      server.close();
    }
  }

  /** {@code braid args...} started in {@code folder}, with the daemon's environment, its stdin from {@code input}. */
  private static CliProcess.Result braidIn(Path folder, Path input, List<String> jvm, String... args) throws Exception {
    ProcessBuilder pb = ChildJvm.get().process(folder, jvm, List.of(args));
    // the daemon's XDG folders: another would send the command back to this process (other default files)
    pb.environment().put("XDG_DATA_HOME", work.resolve(".xdg-data").toString());
    pb.environment().put("XDG_CONFIG_HOME", work.resolve(".xdg-config").toString());
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.redirectInput(input == null ? ProcessBuilder.Redirect.from(new java.io.File("/dev/null")) : ProcessBuilder.Redirect.from(input.toFile()));
    Process p = pb.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "braid ended within 60 s");
    return new CliProcess.Result(p.exitValue(), Files.readString(out), Files.readString(err), List.of(args));
  }

  @Test
  void aRelayedGetWritesWhereTheClientMeantAndTheClientLoadsNoParserJsonOrEngine() throws Exception {
    Path client = Files.createDirectories(downloads.resolve("client"));
    Path classes = work.resolve("relayed-classes.log");
    CliProcess.Result r = braidIn(client, null, List.of("-Xlog:class+load=info:file=" + classes), "get", "--state-db",
        db.toString(), "-o", "relative.bin", server.url("/one.bin")).assertExit(ExitCode.OK).assertNoStackTrace();
    assertTrue(r.stderr().contains("saved " + client.resolve("relative.bin")), r::describe);
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(client.resolve("relative.bin")));
    String loaded = Files.readString(classes);
    assertTrue(loaded.contains("dev.braid.cli.RelayClient "), "the command line went to the relay");
    for (String absent : List.of("picocli.CommandLine$Model", "com.fasterxml.jackson", "org.apache.hc", "org.sqlite",
        "dev.braid.cli.GetCommand", "dev.braid.client.remote.LocalWire")) {
      assertFalse(loaded.contains(absent), "the relaying client loaded " + absent);
    }

    // a list's relative file and dir= lines are relative to the client's folder too
    Files.writeString(client.resolve("list.txt"), server.url("/one.bin") + "\n  dir=sub\n  out=listed.bin\n");
    r = braidIn(client, null, List.of(), "get", "--state-db", db.toString(), "-i", "list.txt")
        .assertExit(ExitCode.OK).assertNoStackTrace();
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(client.resolve("sub").resolve("listed.bin")), r::describe);
    assertFalse(Files.exists(work.resolve("sub")), "nothing landed in the daemon's own folder");
  }

  @Test
  void aGetToStandardOutputGoesBackToTheClientsProcessWhoseStdoutGetsTheBytes() throws Exception {
    Path client = Files.createDirectories(downloads.resolve("stdout-client"));
    ProcessBuilder pb = ChildJvm.get().process(client, List.of(), List.of("get", "--state-db", db.toString(), "-o", "-",
        server.url("/one.bin")));
    pb.environment().put("XDG_DATA_HOME", work.resolve(".xdg-data").toString());
    pb.environment().put("XDG_CONFIG_HOME", work.resolve(".xdg-config").toString());
    Path out = work.resolve("stdout-bytes");
    Path err = work.resolve("stdout-err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = pb.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "braid ended within 60 s");
    assertEquals(ExitCode.OK, p.exitValue(), Files.readString(err));
    // the bytes reached this client's standard output: the daemon, which has other streams, could not write there
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(out), Files.readString(err));
    assertFalse(Files.exists(client.resolve("-")), "a file named - was written");
  }

  @Test
  void aListOnStandardInputGoesBackToTheClientsProcessAndStillUsesTheDaemon() throws Exception {
    Path client = Files.createDirectories(downloads.resolve("stdin-client"));
    Path list = Files.writeString(work.resolve("stdin-list.txt"), server.url("/one.bin") + "\n  out=from-stdin.bin\n");
    Path classes = work.resolve("stdin-classes.log");
    CliProcess.Result r = braidIn(client, list, List.of("-Xlog:class+load=info:file=" + classes), "get", "--state-db",
        db.toString(), "-i", "-").assertExit(ExitCode.OK).assertNoStackTrace();
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(client.resolve("from-stdin.bin")), r::describe);
    String loaded = Files.readString(classes);
    assertTrue(loaded.contains("dev.braid.client.remote.LocalWire"), "handed back, the client added the list over the daemon's RPC");
    assertFalse(loaded.contains("org.sqlite"), "and the download was still the daemon's");
  }

  @Test
  void anotherUsersHelloRunsNothingEvenOnASocketOpenedToAll() throws Exception {
    // the kernel's word on the peer (SO_PEERCRED) is what admits a session: another user is refused
    // even if the socket's and its folder's permissions are opened; only root can be another user here
    org.junit.jupiter.api.Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
        "needs root and setpriv to act as another user");
    Path socket = DaemonLink.relaySocketOf(db);
    Path target = downloads.resolve("never.bin");
    var folderMode = Files.getPosixFilePermissions(work);
    try {
      Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
      List<String> cmd = new java.util.ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
          "--clear-groups", CliProcess.javaBin(), "-cp", RelayAsAnotherUser.readableByAll().toString(),
          RelayAsAnotherUser.class.getName(),
          socket.toString(), db.toString(), work.toString(), "get", "--state-db", db.toString(), "-o", target.toString(),
          server.url("/one.bin")));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), said);
      assertTrue(said.contains("connected; closed unheard"), "another user connects to the opened socket, and nothing answers: " + said);
    } finally {
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
      Files.setPosixFilePermissions(work, folderMode);
    }
    assertFalse(Files.exists(target), "nothing was downloaded");
  }

  @Test
  void aDaemonStartedWithItsSecretOnTheCommandLineRelaysWithoutASecretFile() throws Exception {
    // aria2's way to start a daemon: --rpc-secret, and no secret file for a client to read
    Path other = work.resolve("given.db");
    Path into = Files.createDirectories(work.resolve("given"));
    try (RpcDaemon given = RpcDaemon.start(work, other, into, "a-secret-given-on-its-command-line")) {
      assertFalse(Files.exists(SecretFile.fileOf(other)));
      Path classes = work.resolve("given-classes.log");
      CliProcess.Result r = braidIn(into, null, List.of("-Xlog:class+load=info:file=" + classes), "get", "--state-db",
          other.toString(), "-o", "given.bin", server.url("/one.bin")).assertExit(ExitCode.OK);
      assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(into.resolve("given.bin")), r::describe);
      assertFalse(Files.readString(classes).contains("org.sqlite"), "the daemon ran it: the client opened no store");
      given.process.terminate().assertExit(ExitCode.OK);
    }
  }

  @Test
  void aRelayedUsageErrorReachesItsClient() throws Exception {
    Frames f = relay(hello(List.of("status", "--state-db", db.toString(), "abc")));
    assertEquals(ExitCode.USAGE, f.exit, f::toString);
    assertTrue(f.err.contains("'abc' is not a long") && f.err.contains("braid status --help"), f::toString);
    f = relay(hello(List.of("get", "--state-db", db.toString(), "-o", "x.bin", "-d", "dir", server.url("/one.bin"))));
    assertEquals(ExitCode.USAGE, f.exit, f::toString);
    assertTrue(f.err.contains("mutually exclusive"), f::toString);
  }

  @Test
  void onlyTheQueueCommandsRunInTheDaemonAnyOtherGoesBack() throws Exception {
    for (List<String> args : List.<List<String>>of(List.of("daemon", "--state-db", work.resolve("second.db").toString()), List.of("demo"),
        List.of("refresh", "1"), List.of())) {
      Frames f = relay(hello(args));
      assertTrue(f.local, "handed back: " + args + " " + f);
      assertEquals("", f.out + f.err, "and printed nothing in the daemon");
    }
    assertFalse(Files.exists(work.resolve("second.db")), "no second daemon or store was started");
  }

  @Test
  void aBrokenHelloClosesItsConnectionAndTheDaemonServesTheNext() throws Exception {
    // not the relay's magic; then the magic and a string that claims 1 GiB
    for (byte[] bytes : List.of("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        new byte[] {'B', 'R', 'L', '2', 0x40, 0, 0, 0})) {
      try (SocketChannel ch = connect()) {
        ch.write(java.nio.ByteBuffer.wrap(bytes));
        assertEquals(-1, new DataInputStream(RelayFrames.input(ch)).read(), "closed without an answer");
      }
    }
    CliProcess.Result r = braidIn(work, null, List.of(), "list", "--state-db", db.toString()).assertExit(ExitCode.OK);
    assertTrue(r.stdout().startsWith("   ID  STATE"), r::describe);
  }

  @Test
  void theRelaySocketIsTheUsersOnly() throws Exception {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(DaemonLink.relaySocketOf(db),
        java.nio.file.LinkOption.NOFOLLOW_LINKS)));
  }

  private static RelayFrames.Hello hello(List<String> args) {
    return new RelayFrames.Hello(db.toString(), work.toString(), false, 0,
        List.of(System.getenv().getOrDefault("HOME", ""), work.resolve(".xdg-config").toString(),
            work.resolve(".xdg-data").toString()), args);
  }

  private static SocketChannel connect() throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    ch.connect(UnixDomainSocketAddress.of(DaemonLink.relaySocketOf(db)));
    return ch;
  }

  /** What the daemon sent back for a hello: its output, and its exit code or hand-back. */
  private record Frames(String out, String err, int exit, boolean local) {}

  private static Frames relay(RelayFrames.Hello hello) throws IOException {
    try (SocketChannel ch = connect()) {
      DataOutputStream to = new DataOutputStream(RelayFrames.output(ch));
      hello.write(to);
      DataInputStream in = new DataInputStream(RelayFrames.input(ch));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      while (true) {
        int type = RelayFrames.readType(in);
        if (type == RelayFrames.OUT || type == RelayFrames.ERR) {
          byte[] b = new byte[in.readInt()];
          in.readFully(b);
          (type == RelayFrames.OUT ? out : err).write(b);
        } else if (type == RelayFrames.EXIT) {
          return new Frames(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), in.readInt(), false);
        } else if (type == RelayFrames.LOCAL) {
          return new Frames(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), -1, true);
        } else {
          throw new IOException("unexpected frame " + type + " after out " + out + " and err " + err);
        }
      }
    }
  }
}
