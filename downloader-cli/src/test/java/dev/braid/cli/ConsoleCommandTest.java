package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code braid console} against a real daemon: the URL it opens and prints, and what it says when no daemon runs. */
class ConsoleCommandTest {
  @TempDir Path work;

  @Test
  void opensTheDaemonsConsoleOrSaysWhyNot() throws Exception {
    Path db = work.resolve("state.db");
    Path opened = work.resolve("opened.txt");
    // a browser that notes the URL it was given
    Path browser = work.resolve("browser.sh");
    Files.writeString(browser, "#!/bin/sh\nprintf '%s' \"$1\" > '" + opened + "'\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(browser, PosixFilePermissions.fromString("rwx------"));

    CliProcess.run(work, "console", "--state-db", db.toString(), "--browser", browser.toString())
        .assertExit(ExitCode.LOCAL_IO).assertNoStackTrace().assertOneErrorLine("no daemon runs for", "braid daemon");

    try (RpcDaemon daemon = RpcDaemon.start(work, db, Files.createDirectories(work.resolve("d")), "s")) {
      String url = "http://127.0.0.1:" + daemon.port + "/";
      CliProcess.Result r = CliProcess.run(work, "console", "--state-db", db.toString(), "--browser", browser.toString())
          .assertExit(ExitCode.OK).assertNoStackTrace();
      assertEquals(url, r.stdout().strip());
      assertEquals(url, Files.readString(opened));
      assertTrue(r.stderr().contains("opened the console in your browser"), r.describe());

      CliProcess.Result none = CliProcess.run(work, "console", "--state-db", db.toString(), "--browser", "false")
          .assertExit(ExitCode.OK);
      assertEquals(url, none.stdout().strip());
      assertTrue(none.stderr().contains("no browser could be started here: open " + url), none.describe());
      daemon.process.kill();
    }
    // killed, the daemon left its port file behind: nothing listens there
    CliProcess.run(work, "console", "--state-db", db.toString(), "--browser", browser.toString())
        .assertExit(ExitCode.LOCAL_IO).assertOneErrorLine("no daemon runs for");
  }
}
