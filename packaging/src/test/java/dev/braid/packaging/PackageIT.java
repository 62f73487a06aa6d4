package dev.braid.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The .deb that the installer profile built, unpacked with {@code dpkg-deb -x} into a scratch
 * folder (no root, no dpkg database) and tried from there: {@code usr/bin/braid} is the
 * launcher on the package's own runtime, and the menu entry, icon, man pages and completion are
 * where a desktop, man and bash look for them.
 */
class PackageIT {
  @TempDir static Path root;

  private static Path deb;

  @BeforeAll
  static void unpack() throws Exception {
    assumeTrue(onPath("dpkg-deb"), "dpkg-deb is not installed");
    Path target = Path.of(System.getProperty("braid.package.dir", "target"));
    try (Stream<Path> files = Files.list(target)) {
      List<Path> debs = files.filter(p -> p.getFileName().toString().endsWith(".deb")).toList();
      assertEquals(1, debs.size(), "one .deb in " + target + ": " + debs);
      deb = debs.get(0);
    }
    assertEquals(0, run(List.of("dpkg-deb", "-x", deb.toString(), root.resolve("fs").toString())).status);
  }

  @Test
  void braidOnThePathRunsOnThePackagedRuntime() throws Exception {
    Path braid = root.resolve("fs/usr/bin/braid");
    assertTrue(Files.isSymbolicLink(braid), braid + " is a link to the launcher");
    Out version = run(List.of(braid.toString(), "--version"));
    assertEquals(0, version.status, version.text);
    assertTrue(version.text.matches("braid \\S+\\R?"), version.text);

    // the launcher picked the package's runtime, not the JVM running this test
    Out runtime = run(List.of("sh", "-c", "BRAID_PRINT_STAMP=1 " + braid));
    assertTrue(runtime.text.contains(root.resolve("fs/opt/braid/lib/runtime/bin/java").toString()), runtime.text);

    Out demo = run(List.of(braid.toString(), "demo", "--size", "2M", "--rate", "8M"));
    assertEquals(0, demo.status, demo.text);
    assertTrue(demo.text.contains("Both copies match SHA-256"), demo.text);
  }

  @Test
  void bashCompletionRegistersBraid() throws Exception {
    Path script = root.resolve("fs/usr/share/bash-completion/completions/braid");
    Out bash = run(List.of("bash", "-c", "source " + script + " && complete -p braid"));
    assertEquals(0, bash.status, bash.text);
    assertTrue(bash.text.contains("-F _complete_braid braid"), bash.text);
  }

  @Test
  void manPagesMenuEntryAndIconAreInPlace() throws Exception {
    for (String page : List.of("braid", "braid-get", "braid-completion")) {
      Path gz = root.resolve("fs/usr/share/man/man1/" + page + ".1.gz");
      Out troff = run(List.of("sh", "-c", "gzip -dc " + gz));
      assertEquals(0, troff.status, troff.text);
      // troff escapes the title's hyphens
      String title = page.toUpperCase(java.util.Locale.ROOT).replace("-", "\\-");
      assertTrue(troff.text.contains(".TH \"" + title + "\" \"1\""), troff.text);
    }
    Out get = run(List.of("sh", "-c", "gzip -dc " + root.resolve("fs/usr/share/man/man1/braid-get.1.gz")));
    assertTrue(get.text.contains("max\\-connections") && get.text.contains("143"), "options and exit codes in braid-get(1)");

    Path lib = root.resolve("fs/opt/braid/lib");
    Path desktop;
    try (Stream<Path> files = Files.list(lib)) {
      desktop = files.filter(p -> p.getFileName().toString().endsWith(".desktop")).findFirst().orElseThrow();
    }
    String entry = Files.readString(desktop);
    assertTrue(entry.contains("Exec=/opt/braid/bin/Braid") && entry.contains("Icon=/opt/braid/lib/Braid.png"), entry);
    assertTrue(Files.size(lib.resolve("Braid.png")) > 1000);
    assertTrue(Files.isExecutable(root.resolve("fs/opt/braid/bin/Braid")));

    // the install script makes the launcher's class archive; dpkg-deb -e gives the control files
    Path control = root.resolve("control");
    assertEquals(0, run(List.of("dpkg-deb", "-e", deb.toString(), control.toString())).status);
    String postinst = Files.readString(control.resolve("postinst"));
    assertTrue(postinst.contains("/opt/braid/lib/cli/braid setup") && postinst.contains("xdg-desktop-menu install"), postinst);
  }

  private record Out(int status, String text) {}

  private static Out run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    // the demo's state and the launcher's cache stay in the scratch folder
    env.put("HOME", root.toString());
    env.put("XDG_DATA_HOME", root.resolve("data").toString());
    env.put("XDG_CACHE_HOME", root.resolve("cache").toString());
    env.remove("JAVA_HOME");
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished: " + command);
    return new Out(p.exitValue(), text);
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
