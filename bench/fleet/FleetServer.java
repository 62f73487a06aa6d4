import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;

/**
 * bench/fleet.sh's file server: the project's testserver on an ephemeral loopback port serving
 * COUNT files of SIZE bytes at /f0.bin ... (RATE bytes/s per connection, 0: unlimited). Prints
 * its port on stdout, serves until stdin closes, then prints the most requests it answered at
 * once on stdout.
 * Usage: java -cp braid-testserver.jar FleetServer.java COUNT SIZE RATE
 */
public class FleetServer {
  public static void main(String[] args) throws Exception {
    int count = Integer.parseInt(args[0]);
    int size = Integer.parseInt(args[1]);
    long rate = Long.parseLong(args[2]);
    try (TestServer server = TestServer.start()) {
      for (int i = 0; i < count; i++) {
        var r = server.serve("/f" + i + ".bin", Content.random(size, i)).etag("\"f" + i + "\"");
        if (rate > 0) {
          r.rateLimitPerConnection(rate);
        }
      }
      System.out.println(server.port());
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the script closes our stdin
      }
      System.out.println(server.peakConcurrentRequests());
    }
  }
}
