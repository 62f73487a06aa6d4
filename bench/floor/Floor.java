import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Properties;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.sqlite.JDBC;

/**
 * The start-up floor of braid's stack (bench/startup.sh, tool "floor"): the least a JVM program
 * does to download one URL with the libraries braid is built on. One row in a new SQLite
 * database (on a second thread, as braid opens its store) and one GET with HttpClient 5 written
 * to a file at its position; no argument parsing, no queue, no ranges, no resume records.
 * TLS is never set up (plain http), as braid sets it up only for an https URL.
 *
 * Usage: java -cp floor.jar:braid.jar Floor URL OUTPUT DATABASE
 */
public final class Floor {
  public static void main(String[] args) throws Exception {
    Thread store = new Thread(() -> {
      try (Connection c = JDBC.createConnection("jdbc:sqlite:" + args[2], new Properties());
          Statement s = c.createStatement()) {
        s.execute("create table if not exists progress(id integer primary key, done integer)");
        s.execute("insert into progress(done) values (0)");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    store.start();
    var connections = PoolingHttpClientConnectionManagerBuilder.create()
        .setTlsSocketStrategy((socket, target, port, attachment, context) -> {
          throw new UnsupportedOperationException("plain http only");
        }).build();
    try (CloseableHttpClient client = HttpClients.custom().setConnectionManager(connections).build();
        FileChannel out = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      client.execute(new HttpGet(args[0]), response -> {
        byte[] buffer = new byte[64 * 1024];
        long position = 0;
        try (InputStream in = response.getEntity().getContent()) {
          for (int n; (n = in.read(buffer)) > 0; position += n) {
            out.write(ByteBuffer.wrap(buffer, 0, n), position);
          }
        }
        return position;
      });
    }
    store.join();
  }
}
