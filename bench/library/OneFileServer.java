import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;

/**
 * The server of bench/library.sh: the project's testserver on 127.0.0.1 with one random file of
 * SIZE bytes at /file.bin (ranges and an ETag, as a plain web server has). Prints the port and the
 * file's SHA-256, then serves until stdin closes.
 */
public final class OneFileServer {
  public static void main(String[] args) throws IOException {
    Content c = Content.random(Long.parseLong(args[0]), 7);
    try (TestServer server = TestServer.start()) {
      server.serve("/file.bin", c).etag("\"library\"");
      System.out.println(server.port() + " " + c.sha256Hex());
      System.out.flush();
      while (System.in.read() >= 0) {
        // serve until the script closes our stdin
      }
    }
  }
}
