package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.braid.core.Checksum;
import dev.braid.testserver.Content;
import dev.braid.testserver.SelfSigned;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher itself, {@code target/braid} as the package phase made it (the other CLI tests
 * start {@code java -cp ... Main}): it starts braid, a copy of it makes nothing in the background,
 * and {@code braid setup} makes an archive the next run maps.
 */
class LauncherIT {
  @TempDir Path home;

  private static final Path TARGET = Path.of(System.getProperty("braid.launcher.dir", "target"));

  @Test
  void launcherRunsVersionAndDemo() throws Exception {
    Out version = run(TARGET.resolve("braid"), Map.of(), "--version");
    assertEquals(0, version.status, version.text);
    assertTrue(version.text.matches("braid \\S+\\R?"), version.text);

    Out demo = run(TARGET.resolve("braid"), Map.of(), "demo", "--size", "2M", "--rate", "8M");
    assertEquals(0, demo.status, demo.text);
    assertTrue(demo.text.contains("Both copies match SHA-256"), demo.text);
  }

  /** The launcher, its jar and its JIT directives, copied to {@code home/opt}: no archive yet. */
  private Path copyOfTheLauncher() throws IOException {
    Path copy = Files.createDirectories(home.resolve("opt"));
    for (String file : List.of("braid", "braid.jar", "braid-jit.json")) {
      Files.copy(TARGET.resolve(file), copy.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
    }
    return copy;
  }

  @Test
  void movedCopyMakesNothingUntilSetup() throws Exception {
    Path copy = copyOfTheLauncher();
    Path braid = copy.resolve("braid");
    Out first = run(braid, Map.of(), "--version");
    assertEquals(0, first.status, first.text);
    // the launcher that made an archive in the background created its cache folder at once
    assertFalse(Files.exists(home.resolve("cache")), "nothing made in the background");
    assertFalse(Files.exists(copy.resolve("braid.jsa")));

    Out setup = run(braid, Map.of(), "setup");
    assertEquals(0, setup.status, setup.text);
    assertTrue(Files.size(copy.resolve("braid.jsa")) > 1_000_000, setup.text);
    assertTrue(Files.size(copy.resolve("braid-client.jsa")) > 100_000, "the relaying client's own archive: " + setup.text);
    // -Xshare:on turns a missing or unusable archive into a start-up failure
    Out mapped = run(braid, Map.of("BRAID_JAVA_OPTS", "-Xshare:on"), "--version");
    assertEquals(0, mapped.status, mapped.text);
  }

  @Test
  void onJava25SetupMakesArchivesThatItsNextRunsMap() throws Exception {
    // the launcher reads the runtime's version and names its archives by it; the image this
    // project's CI runs on has Temurin 25 beside Java 17
    Path jdk = Path.of(System.getProperty("braid.java25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
    assumeTrue(Files.isExecutable(jdk.resolve("bin/java")), "no Java 25 at " + jdk + " (-Dbraid.java25.home=...)");
    Path copy = copyOfTheLauncher();
    Path braid = copy.resolve("braid");
    Out setup = run(braid, Map.of("JAVA_HOME", jdk.toString()), "setup");
    assertEquals(0, setup.status, setup.text);
    assertTrue(setup.text.contains("(for " + jdk.resolve("bin/java")), setup.text);
    assertTrue(Files.size(copy.resolve("braid.jsa")) > 1_000_000, setup.text);
    assertTrue(Files.size(copy.resolve("braid-client.jsa")) > 100_000, "the relaying client's own archive: " + setup.text);
    // -Xshare:on turns a missing or unusable archive into a start-up failure
    Out demo = run(braid, Map.of("JAVA_HOME", jdk.toString(), "BRAID_JAVA_OPTS", "-Xshare:on"), "demo", "--size", "2M",
        "--rate", "8M");
    assertEquals(0, demo.status, demo.text);
    assertTrue(demo.text.contains("Both copies match SHA-256"), demo.text);
    // an archive made by another JVM is not used: Java 17 starts without it rather than fail on it
    Out other = run(braid, Map.of("BRAID_JAVA_OPTS", "-Xlog:cds=info"), "--version");
    assertEquals(0, other.status, other.text);
    assertFalse(other.text.contains("Opened archive " + copy.resolve("braid.jsa")), other.text);
  }

  @Test
  void theJarChecksEveryDigestItOffers() throws Exception {
    // the jar keeps only the part of Bouncy Castle its digests reach (the shade filter in
    // pom.xml): a class left out fails the download that needs it
    List<String> algorithms = List.of("sha3-256", "blake2b-512", "blake3", "sha-256");
    try (TestServer server = TestServer.start()) {
      StringBuilder list = new StringBuilder();
      for (int i = 0; i < algorithms.size(); i++) {
        Content c = Content.random(300_000 + i, 30 + i);
        server.serve("/d" + i, c);
        Path copy = home.resolve("expected" + i);
        try (java.io.OutputStream out = Files.newOutputStream(copy)) {
          c.writeTo(out);
        }
        list.append(server.url("/d" + i)).append("\n  checksum=").append(algorithms.get(i)).append('=')
            .append(Checksum.of(copy, algorithms.get(i)).hex()).append('\n');
      }
      Files.writeString(home.resolve("list.txt"), list);
      Out got = run(TARGET.resolve("braid"), Map.of(), "get", "-i", "list.txt", "-d", "out",
          "--state-db", home.resolve("state.db").toString());
      assertEquals(0, got.status, got.text);
      assertTrue(got.text.contains("4 of 4 downloads completed"), got.text);
    }
  }

  @Test
  void theJarReadsTheOlderKeyFormsOfTheDaemonsTls() throws Exception {
    // the jar keeps only the Bouncy Castle classes ServerCertificate reaches (the shade filter in
    // pom.xml): a PKCS#1 and a SEC 1 key are each read, then found not of the other certificate's
    // kind, exit 2; a class left out would end in exit 1 and a stack trace
    SelfSigned rsa = SelfSigned.make(home, "rsa", "rsa");
    SelfSigned ec = SelfSigned.make(home, "ec", "ec");
    for (SelfSigned[] pair : List.of(new SelfSigned[] {rsa, ec}, new SelfSigned[] {ec, rsa})) {
      Out refused = run(TARGET.resolve("braid"), Map.of(), "daemon", "--state-db", home.resolve("state.db").toString(),
          "--rpc-listen-port", "0", "--rpc-certificate", pair[1].certificate().toString(),
          "--rpc-private-key", pair[0].traditionalKey().toString());
      assertEquals(2, refused.status, refused.text);
      assertTrue(refused.text.contains("cannot be read as the certificate's kind of key"), refused.text);
    }
  }

  @Test
  void aQueueCommandWithADaemonsRelayStartsFromTheClientArchive() throws Exception {
    Path client = TARGET.resolve("braid-client.jsa");
    assertTrue(Files.exists(client), "the package phase made the client's archive");
    Files.createDirectories(home.resolve("out"));
    // the default state database, as the launcher finds it in shell and Java in Braid.defaultStateDatabase
    ProcessBuilder pb = launcher(TARGET.resolve("braid"), Map.of(), "daemon", "-d", "out", "--rpc-listen-port", "0");
    Path log = home.resolve("daemon.log");
    Process daemon = pb.redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readString(log).contains("serving aria2 JSON-RPC") && System.nanoTime() < deadline && daemon.isAlive()) {
        Thread.sleep(20);
      }
      assertTrue(Files.readString(log).contains("serving aria2 JSON-RPC"), Files.readString(log));
      Map<String, String> cds = Map.of("BRAID_JAVA_OPTS", "-Xlog:cds=info");
      Path db = home.resolve("data").resolve("braid").resolve("state.db");
      for (String[] args : List.of(new String[] {"list"}, new String[] {"list", "--state-db", db.toString()},
          new String[] {"status", "--state-db=" + db, "1"})) {
        Out out = run(TARGET.resolve("braid"), cds, args);
        assertTrue(out.text.contains("Opened archive " + client.toRealPath()), String.join(" ", args) + ": " + out.text);
      }
      // no daemon on this one: the whole archive, as the command runs an engine here
      Out alone = run(TARGET.resolve("braid"), cds, "list", "--state-db", home.resolve("other.db").toString());
      assertEquals(0, alone.status, alone.text);
      assertFalse(alone.text.contains("braid-client.jsa"), alone.text);
      assertTrue(alone.text.contains("Opened archive " + TARGET.resolve("braid.jsa").toRealPath()), alone.text);
    } finally {
      daemon.destroy();
      assertTrue(daemon.waitFor(60, TimeUnit.SECONDS), "the daemon stopped on SIGTERM");
    }
  }

  private record Out(int status, String text) {}

  private Out run(Path launcher, Map<String, String> env, String... args) throws IOException, InterruptedException {
    ProcessBuilder pb = launcher(launcher, env, args);
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished: " + pb.command());
    return new Out(p.exitValue(), text);
  }

  /** {@code launcher args...} in the test's home, with its own HOME, cache and data folders. */
  private ProcessBuilder launcher(Path launcher, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>(List.of(launcher.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(home.toFile());
    pb.environment().put("HOME", home.toString());
    pb.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
    pb.environment().put("XDG_DATA_HOME", home.resolve("data").toString());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    return pb;
  }
}
