package dev.braid.cli;

import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.StateAnchor;
import java.awt.Desktop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code braid console}: opens the web console of the daemon of a state database in the user's
 * browser: {@code --browser}, else {@code $BROWSER}, else the desktop's own (java.awt.Desktop),
 * else xdg-open or open. The URL goes to stdout in any case; when no browser starts, that is all.
 * Exit 0 once the URL is printed (and a browser asked to open it), 6 when no daemon listens. An
 * {@code https://} URL when the daemon serves TLS.
 */
final class ConsoleCommand implements Callable<Integer> {
  /** How long a browser launcher (xdg-open, open) may take to say whether it started one. */
  private static final long LAUNCH_TIMEOUT_SECONDS = 10;

  private final OptionSpec stateDb = QueueArguments.stateDb();
  private final OptionSpec browser = CommandModel.option(String.class, "COMMAND",
      "the program that opens the URL (default: $BROWSER, else the desktop's browser, else xdg-open or open)",
      "--browser").build();

  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("console", this,
        "Open the web console of the running braid daemon in your browser (its URL is printed too).");
    spec.addOption(stateDb).addOption(browser);
    spec.usageMessage().footerHeading("%nExit codes:%n").footer(
        "  0   the console's URL printed (and opened in a browser when one could be started)",
        "  6   no daemon listens for this state database (start one with braid daemon)");
    return spec;
  }

  @Override
  public Integer call() throws InterruptedException {
    Path anchor = StateAnchor.of(QueueArguments.stateLocation(stateDb));
    int port;
    boolean secure;
    try {
      List<String> announced = Files.readAllLines(DaemonLink.portFileOf(anchor), StandardCharsets.UTF_8);
      port = Integer.parseInt(announced.get(0).strip());
      secure = announced.stream().anyMatch(l -> l.startsWith(DaemonLink.CERTIFICATE));
    } catch (NoSuchFileException e) {
      return noDaemon(anchor);
    } catch (IOException | RuntimeException e) {
      System.err.println("braid: cannot read the daemon's port from " + DaemonLink.portFileOf(anchor) + ": " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
    if (!listening(port)) {
      // a port file left by a daemon that was killed
      return noDaemon(anchor);
    }
    String url = (secure ? "https" : "http") + "://127.0.0.1:" + port + "/";
    System.out.println(url);
    System.out.flush();
    if (open(url)) {
      System.err.println("braid: opened the console in your browser; sign in with the daemon's secret");
    } else {
      System.err.println("braid: no browser could be started here: open " + url + " yourself");
    }
    return ExitCode.OK;
  }

  private static int noDaemon(Path anchor) {
    System.err.println("braid: no daemon runs for " + anchor + ": start one with braid daemon");
    return ExitCode.LOCAL_IO;
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a browser was asked to open {@code url} and did not refuse. */
  private boolean open(String url) throws InterruptedException {
    String chosen = browser.getValue() != null ? browser.getValue() : System.getenv("BROWSER");
    if (chosen != null && !chosen.isBlank()) {
      return launch(List.of(chosen.strip(), url));
    }
    try {
      if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
        Desktop.getDesktop().browse(URI.create(url));
        return true;
      }
    } catch (IOException | RuntimeException e) {
      // no desktop session (headless, or no handler): try the launchers below
    }
    boolean mac = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("mac");
    return launch(List.of(mac ? "open" : "xdg-open", url));
  }

  private static boolean launch(List<String> command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(LAUNCH_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        // a browser run in the foreground (as $BROWSER may be): it is open
        return true;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }
}
