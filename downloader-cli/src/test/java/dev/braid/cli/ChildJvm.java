package dev.braid.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * What every child JVM of the suite starts with: the tests' class path, its directories (the
 * reactor's {@code target/classes}) packed once into jars of a private folder, and a class archive
 * of those jars made by one training run, as the launcher makes {@code braid.jsa}.
 *
 * <p>Why jars: every child then runs the same build even if the sources are recompiled while the
 * suite runs (a ClassNotFoundException half-way through is not a braid failure), and the JVM
 * archives classes from jars only. Why the archive: the suite starts several hundred children, and
 * each one that parses and verifies its ~2,000 classes takes ~0.1 s more than one that maps them.
 * If the training fails the children run without the archive, slower but the same.
 *
 * <p>Made once per test JVM, on first use, under the class's lock; removed by a shutdown hook.
 */
final class ChildJvm {
  /** JVM flags of every child: a CLI run is short, so C1 only and the serial collector start faster on a small machine. */
  private static final List<String> BASE_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  /** A child that cannot use the archive (a mismatch) says nothing of it on stderr, which tests read. */
  private static final List<String> QUIET_CDS = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  private static ChildJvm instance;

  private final String classPath;
  private final Path sqliteTemp;
  private final Path archive;

  private ChildJvm(String classPath, Path sqliteTemp, Path archive) {
    this.classPath = classPath;
    this.sqliteTemp = sqliteTemp;
    this.archive = archive;
  }

  static synchronized ChildJvm get() throws IOException {
    if (instance == null) {
      Path root = Files.createTempDirectory("braid-cli-classpath-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root)));
      List<String> entries = new ArrayList<>();
      int i = 0;
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path p = Path.of(entry);
        if (Files.isDirectory(p)) {
          Path jar = root.resolve((i++) + ".jar");
          pack(p, jar);
          entries.add(jar.toString());
        } else {
          entries.add(entry);
        }
      }
      String classPath = String.join(java.io.File.pathSeparator, entries);
      Path sqlite = Files.createDirectory(root.resolve("sqlite"));
      instance = new ChildJvm(classPath, sqlite, train(root, classPath, sqlite));
    }
    return instance;
  }

  /**
   * A child {@code braid args...} in {@code workDir}, with {@code jvmOptions}, mapping the archive
   * when there is one. Its output is the caller's to redirect.
   */
  ProcessBuilder process(Path workDir, List<String> jvmOptions, List<String> args) {
    List<String> cds = archive == null ? List.of() : List.of("-Xshare:auto", "-XX:SharedArchiveFile=" + archive);
    return process(classPath, sqliteTemp, cds, jvmOptions, args, workDir);
  }

  private static ProcessBuilder process(String classPath, Path sqlite, List<String> cds, List<String> jvmOptions,
      List<String> args, Path workDir) {
    List<String> cmd = new ArrayList<>();
    cmd.add(CliProcess.javaBin());
    cmd.addAll(BASE_FLAGS);
    cmd.add("-Dorg.sqlite.tmpdir=" + sqlite);
    cmd.addAll(QUIET_CDS);
    cmd.addAll(cds);
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", classPath, "dev.braid.cli.Main"));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
    // a test that forgot --state-db must not touch the user's real state database
    pb.environment().put("XDG_DATA_HOME", workDir.resolve(".xdg-data").toString());
    // nor read the user's rules file: a test writes its own under workDir/.xdg-config/braid when it needs one
    pb.environment().put("XDG_CONFIG_HOME", workDir.resolve(".xdg-config").toString());
    return pb;
  }

  /**
   * The launcher's training run (a small demo over HTTPS, then the same file with get's own
   * command, in process and through a daemon's RPC), archiving what it loaded; null if it failed.
   */
  private static Path train(Path root, String classPath, Path sqlite) throws IOException {
    Path archive = root.resolve("children.jsa");
    Path work = Files.createDirectory(root.resolve("training"));
    Process p = process(classPath, sqlite, List.of("-Xshare:auto", "-XX:ArchiveClassesAtExit=" + archive), List.of(),
        List.of("demo", "--size", "4M", "--rate", "64M", "--https", "--through-rpc"), work)
        .redirectOutput(work.resolve("stdout").toFile()).redirectError(work.resolve("stderr").toFile()).start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    boolean made = !p.isAlive() && p.exitValue() == 0 && Files.exists(archive);
    if (!made) {
      System.err.println("[child JVMs] the class archive's training failed; children run without it: "
          + Files.readString(work.resolve("stderr")));
    }
    return made ? archive : null;
  }

  /** Packs the tree under {@code dir} into {@code jar}, directories included (a package's resources are looked up by them). */
  private static void pack(Path dir, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
         Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        if (p.equals(dir)) {
          continue;
        }
        String name = dir.relativize(p).toString().replace(java.io.File.separatorChar, '/');
        boolean folder = Files.isDirectory(p);
        zip.putNextEntry(new JarEntry(folder ? name + "/" : name));
        if (!folder) {
          Files.copy(p, zip);
        }
        zip.closeEntry();
      }
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temp folder left behind is harmless
    }
  }
}
