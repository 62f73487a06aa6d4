import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 36's flood: N raw connections to a daemon's RPC, half sending a head that declares a 1 MiB
 * body and then nothing, half half a head; then 5 calls with the secret, each timed (a call not
 * answered within 30 s counts as 30 s). Prints "held=H max_ms=M median_ms=D", then holds the
 * connections HOLD more seconds. Run: java Flood.java PORT SECRET N [HOLD]
 */
public class Flood {
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    String secret = args[1];
    int n = Integer.parseInt(args[2]);
    long hold = args.length > 3 ? Long.parseLong(args[3]) : 0;
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      try {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        OutputStream out = s.getOutputStream();
        out.write((i % 2 == 0 ? "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n"
            : "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        held.add(s);
      } catch (Exception e) {
        // not accepted within 2 s: past the cap
      }
    }
    HttpClient http = HttpClient.newHttpClient();
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:" + secret + "\"]}";
    List<Long> ms = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long t0 = System.nanoTime();
      try {
        http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jsonrpc")).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        ms.add((System.nanoTime() - t0) / 1_000_000);
      } catch (Exception e) {
        ms.add(30_000L);
      }
    }
    ms.sort(null);
    System.out.println("held=" + held.size() + " max_ms=" + ms.get(4) + " median_ms=" + ms.get(2));
    System.out.flush();
    Thread.sleep(hold * 1000);
    for (Socket s : held) {
      s.close();
    }
  }
}
