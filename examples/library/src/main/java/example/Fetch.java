package example;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import java.nio.file.Path;

/** Downloads one URL into a folder, resuming what an earlier run of this job left: java example.Fetch URL DIR. */
public final class Fetch {
  private Fetch() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: Fetch URL DIR");
      System.exit(2);
    }
    Path dir = Path.of(args[1]);
    // the job's own state database, next to its files, instead of the user's default one
    try (Braid braid = Braid.builder().stateDatabase(dir.resolve(".braid-state.db")).build()) {
      Download download = braid.submit(DownloadRequest.builder(args[0]).directory(dir).build());
      DownloadResult result = download.result().join();
      System.out.println(result.file() + ": " + result.length() + " bytes, " + result.bytesFetched() + " fetched");
    }
  }
}
