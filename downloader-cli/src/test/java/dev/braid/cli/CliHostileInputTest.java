package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile Metalink, list or webhook receiver can make a real {@code braid get} do: names
 * cleaned as a server's are, no write through a link out of the folder or to {@code out=..}, no
 * escape sequence on the terminal, no heap filled by an endless answer.
 */
class CliHostileInputTest {
  @TempDir Path work;
  @TempDir Path stateDir;
  TestServer server;
  Content content;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
    content = Content.random(200_000, 36);
    server.serve("/f.bin", content);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Result braid(List<String> jvm, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--state-db");
    all.add(stateDir.resolve("state.db").toString());
    return CliProcess.run(work, jvm, all.toArray(String[]::new));
  }

  private Result braid(String... args) throws IOException, InterruptedException {
    return braid(List.of(), args);
  }

  private Path metalink(String name, String xmlVersion, String files) throws IOException {
    return Files.writeString(work.resolve(name), "<?xml version=\"" + xmlVersion + "\" encoding=\"UTF-8\"?>\n"
        + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n" + files + "</metalink>\n", StandardCharsets.UTF_8);
  }

  private String file(String name) {
    return "<file name=\"" + name + "\"><size>" + content.size() + "</size><url>" + server.url("/f.bin") + "</url></file>\n";
  }

  @Test
  void metalinkNamesAreCleanedAsAServersAre() throws Exception {
    Path meta = metalink("names.meta4", "1.0",
        file(".bashrc") + file("x/.ssh/authorized_keys") + file(".config/autostart/evil.desktop") + file("&#x202E;gpj.exe"));
    braid("get", meta.toString(), "-d", "out").assertExit(0);
    for (String name : List.of("bashrc", "x/ssh/authorized_keys", "config/autostart/evil.desktop", "_gpj.exe")) {
      assertEquals(content.sha256Hex(), Content.sha256Hex(work.resolve("out").resolve(name)), name);
    }
    try (var all = Files.walk(work.resolve("out"))) {
      List<String> hidden = all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".") || n.contains("\u202E"))
          .toList();
      assertEquals(List.of(), hidden);
    }

    Path up = metalink("up.meta4", "1.0", file("../escaped.bin"));
    braid("get", up.toString(), "-d", "out").assertExit(11).assertStderrContains("unsafe file name '../escaped.bin'");
    assertFalse(Files.exists(work.resolve("escaped.bin")));
  }

  @Test
  void aMetalinkNameThroughALinkOutOfTheFolderWritesNothing() throws Exception {
    Path outside = Files.createDirectories(stateDir.resolve("home/.config"));
    Files.createSymbolicLink(Files.createDirectories(work.resolve("out")).resolve("docs"), outside);
    Path meta = metalink("link.meta4", "1.0", file("docs/autostart/evil.desktop"));
    braid("get", meta.toString(), "-d", "out").assertExit(11).assertNoStackTrace()
        .assertStderrContains("a symbolic link leading out of the folder");
    try (var left = Files.list(outside)) {
      assertEquals(List.of(), left.toList(), "written through the link");
    }
    assertEquals(0, server.requests().size(), "nothing was fetched");
  }

  @Test
  void escapeSequencesFromAMetalinkNeverReachTheTerminal() throws Exception {
    // XML 1.1 lets a document carry ESC, BEL and C1's CSI as character references
    Path noted = metalink("noted.meta4", "1.1", "<file name=\"a.bin\"><hash type=\"x&#x1b;]2;pwned&#x7;&#x9b;2J\">00</hash>"
        + "<url>" + server.url("/f.bin") + "</url></file>\n");
    Result ok = braid("get", noted.toString(), "-d", "out").assertExit(0);
    assertTrue(ok.stderr().contains("hash type x]2;pwned2j ignored"), ok::describe);
    Path refused = metalink("refused.meta4", "1.1", "<file name=\"b.bin\"><size>&#x1b;[2J&#x1b;]52;c;cHduZWQ=&#x7;1</size>"
        + "<url>" + server.url("/f.bin") + "</url></file>\n");
    Result bad = braid("get", refused.toString(), "-d", "out").assertExit(11);
    assertTrue(bad.stderr().contains("size '[2J]52;c;cHduZWQ=1' is not a number"), bad::describe);
    for (Result r : List.of(ok, bad)) {
      String all = r.stdout() + r.stderr();
      assertFalse(all.contains("\u001b") || all.contains("\u0007") || all.contains("\u009b"), r::describe);
    }
  }

  @Test
  void outInAListStaysInTheFolder() throws Exception {
    Files.createDirectories(work.resolve("dl"));
    for (String out : List.of("..", "../x.bin", "/tmp/x.bin", ".")) {
      Path list = Files.writeString(work.resolve("list.txt"), server.url("/f.bin") + "\n  out=" + out + "\n");
      braid("get", "-i", list.toString(), "-d", "dl", "--overwrite").assertExit(ExitCode.USAGE)
          .assertOneErrorLine("list.txt:2", "out=");
    }
    try (var left = Files.list(work)) {
      assertEquals(List.of("dl", "list.txt"), left.map(p -> p.getFileName().toString()).sorted().toList());
    }
    try (var left = Files.list(work.resolve("dl"))) {
      assertEquals(List.of(), left.toList());
    }
    assertEquals(0, server.requests().size(), "nothing was fetched");
  }

  @Test
  void anEndlessWebhookAnswerIsNotReadPastItsBound() throws Exception {
    AtomicLong sent = new AtomicLong();
    HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hook", ex -> {
      ex.getRequestBody().readAllBytes();
      ex.sendResponseHeaders(200, 0);
      byte[] chunk = new byte[64 << 10];
      // endless to the client: bounded here only so that a broken client cannot hold the test
      try (OutputStream body = ex.getResponseBody()) {
        while (sent.get() < (4L << 30)) {
          body.write(chunk);
          sent.addAndGet(chunk.length);
        }
      } catch (IOException closedByTheClient) {
        // what a bounded reader does
      }
    });
    receiver.start();
    try {
      Result r = braid(List.of("-Xmx48m"), "get", server.url("/f.bin"), "-o", "f.bin", "-q",
          "--on-download-webhook", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook", "--hook-timeout", "10")
          .assertExit(0).assertNoStackTrace();
      assertFalse(r.stderr().contains("OutOfMemoryError"), r::describe);
      assertEquals(content.sha256Hex(), Content.sha256Hex(work.resolve("f.bin")));
      assertTrue(sent.get() > 0, "the webhook was called");
      // 64 KiB read, and what the sockets' buffers held when the client closed
      assertTrue(sent.get() < 32L << 20, "the client read on: " + sent.get() + " bytes");
    } finally {
      receiver.stop(0);
    }
  }
}
