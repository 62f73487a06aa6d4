import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;

/**
 * The server of bench/slowfirst.sh: the project's testserver on 127.0.0.1 with two copies of one
 * random file, every connection capped at RATE bytes/s. On /slow.bin the connection whose first
 * response starts at byte 0 crawls at SLOW bytes/s for its whole life; /even.bin has no slow
 * connection. Prints the port and the file's SHA-256, then serves until stdin closes; on exit it
 * prints how many bytes the slow connections sent.
 */
public final class SlowFirstServer {
  public static void main(String[] args) throws IOException {
    long size = Long.parseLong(args[0]);
    long rate = Long.parseLong(args[1]);
    long slow = Long.parseLong(args[2]);
    Content c = Content.random(size, 20);
    try (TestServer server = TestServer.start()) {
      server.serve("/even.bin", c).etag("\"even\"").rateLimitPerConnection(rate);
      Resource slowOne = server.serve("/slow.bin", c).etag("\"slow\"").rateLimitPerConnection(rate)
          .slowConnectionFromByteZero(slow);
      System.out.println(server.port() + " " + c.sha256Hex());
      System.out.flush();
      while (System.in.read() >= 0) {
        // serve until the script closes our stdin
      }
      System.err.println("slow connections sent " + slowOne.slowConnectionBytesSent() + " bytes");
    }
  }
}
