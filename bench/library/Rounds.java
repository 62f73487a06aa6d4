import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A batch job's own JVM using the library (bench/library-rounds.sh): one {@link Braid} for the
 * whole run, and a batch of the listed URLs for each folder named on stdin, one line a round.
 * After each round it prints "round wall_s cpu_s" (the whole process's CPU, its JIT and GC
 * included, for that round only). The JVM is started with no flags, as a library user's would be.
 *
 * <p>Usage: java -cp braid.jar Rounds.java LIST STATE_DB JOBS
 */
public final class Rounds {
  private Rounds() {}

  public static void main(String[] args) throws Exception {
    List<String> urls = Files.readAllLines(Path.of(args[0])).stream().filter(u -> !u.isBlank()).toList();
    int jobs = Integer.parseInt(args[2]);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (Braid braid = Braid.builder().stateDatabase(Path.of(args[1])).maxActiveDownloads(jobs).build()) {
      System.out.println("ready");
      int round = 0;
      for (String folder; (folder = in.readLine()) != null; ) {
        round++;
        Path dir = Path.of(folder);
        List<DownloadRequest> batch = new ArrayList<>();
        for (String u : urls) {
          batch.add(DownloadRequest.builder(u).directory(dir).build());
        }
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (Download d : braid.submitAll(batch, false)) {
          d.result().join();
        }
        double wall = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%d %.3f %.3f%n", round, wall, (os.getProcessCpuTime() - cpu) / 1e9);
      }
    }
  }
}
