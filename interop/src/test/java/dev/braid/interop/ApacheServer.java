package dev.braid.interop;

import dev.braid.testserver.TestCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Debian's Apache (apache2, mpm_event) started for a test class on two free loopback ports, with a
 * configuration of its own in a temporary folder (ServerRoot, PidFile, logs): plain HTTP/1.1 on one
 * port, TLS with {@code Protocols h2 http/1.1} on the other. Set up as common sites are:
 * {@code AddEncoding gzip .gz} (in Debian's mime.conf, commented out), mod_deflate on
 * {@code text/plain} (Debian enables it), and {@code /slow/} throttled by mod_ratelimit. The test owns the process: {@link #close()} stops it.
 */
final class ApacheServer implements AutoCloseable {
  /** mod_ratelimit's rate for {@code /slow/}, per response: slow enough to kill a download mid-way. */
  static final int SLOW_KIB_PER_SECOND = 256;
  /**
   * mod_ratelimit's rate for {@code /paced/}, per response: fast, but slow enough that a
   * download's other connections start while its first request still streams, as on a real link
   * (unpaced on loopback, the first connection could fetch a 32 MiB file before they did).
   */
  static final int PACED_KIB_PER_SECOND = 8192;

  private static final Path MODULES = Path.of("/usr/lib/apache2/modules");
  private static final List<String> MODULE_NAMES = List.of("mpm_event", "authz_core", "mime", "env", "filter",
      "deflate", "ratelimit", "ssl", "socache_shmcb", "http2");
  private static final int START_ATTEMPTS = 3;

  private final ServerProcess process;
  private final Path root;
  private final int httpPort;
  private final int httpsPort;

  private ApacheServer(Process process, Path root, int httpPort, int httpsPort) {
    this.process = new ServerProcess(process, root);
    this.root = root;
    this.httpPort = httpPort;
    this.httpsPort = httpsPort;
  }

  /**
   * Installs apache2 if needed (testenv/require-packages.sh) and starts it, serving
   * {@code root/htdocs}; {@code certificate} is the TLS port's key and certificate.
   */
  static ApacheServer start(TestCertificate certificate) throws IOException, InterruptedException {
    RequiredPackages.require("apache2");
    // readable by the server's children: as root, Apache runs them as www-data
    Path root = Files.createTempDirectory("braid-apache-", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    for (String dir : List.of("htdocs", "htdocs/slow", "htdocs/paced", "conf", "logs")) {
      Files.createDirectories(root.resolve(dir));
    }
    Files.writeString(root.resolve("conf/mime.types"), "text/plain txt\napplication/x-tar tar\n");
    String failure = "";
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      int http = LoopbackPorts.free();
      int https = LoopbackPorts.free();
      Path conf = root.resolve("conf/httpd.conf");
      Files.writeString(conf, config(root, http, https, certificate), StandardCharsets.UTF_8);
      Process p = new ProcessBuilder(apacheBinary(), "-f", conf.toString(), "-DFOREGROUND")
          .redirectErrorStream(true).redirectOutput(root.resolve("logs/console.log").toFile()).start();
      ApacheServer server = new ApacheServer(p, root, http, https);
      if (server.process.awaitReady(http, https)) {
        return server;
      }
      server.process.stop();
      // a port taken between LoopbackPorts.free() and Apache's bind is worth another try; anything else is not
      failure = server.logs();
      if (!failure.contains("Address already in use")) {
        break;
      }
    }
    throw new IOException("Apache did not start:\n" + failure);
  }

  private static String config(Path root, int http, int https, TestCertificate certificate) throws IOException {
    StringBuilder c = new StringBuilder();
    c.append("ServerRoot ").append(root).append('\n');
    c.append("DefaultRuntimeDir ").append(root.resolve("logs")).append('\n');
    c.append("PidFile ").append(root.resolve("logs/httpd.pid")).append('\n');
    c.append("ErrorLog ").append(root.resolve("logs/error.log")).append('\n');
    c.append("LogLevel warn\n");
    if ("root".equals(System.getProperty("user.name"))) {
      c.append("User www-data\nGroup www-data\n");
    }
    for (String m : MODULE_NAMES) {
      c.append("LoadModule ").append(m).append("_module ").append(MODULES.resolve("mod_" + m + ".so")).append('\n');
    }
    c.append("""
        ServerName 127.0.0.1
        StartServers 1
        ServerLimit 4
        ThreadsPerChild 25
        MaxRequestWorkers 100
        TypesConfig conf/mime.types
        AddType application/octet-stream .bin
        AddEncoding gzip .gz
        AddOutputFilterByType DEFLATE text/plain
        """);
    c.append("Listen 127.0.0.1:").append(http).append('\n');
    c.append("Listen 127.0.0.1:").append(https).append('\n');
    c.append("DocumentRoot ").append(root.resolve("htdocs")).append('\n');
    c.append("<Directory ").append(root.resolve("htdocs")).append(">\n  Require all granted\n</Directory>\n");
    c.append("<Location /slow/>\n  SetOutputFilter RATE_LIMIT\n  SetEnv rate-limit ").append(SLOW_KIB_PER_SECOND)
        .append("\n</Location>\n");
    c.append("<Location /paced/>\n  SetOutputFilter RATE_LIMIT\n  SetEnv rate-limit ").append(PACED_KIB_PER_SECOND)
        .append("\n</Location>\n");
    // AccessLog reads these fields back, tab-separated: start time (ms), protocol, path, status,
    // the request's Range and If-Range, the response's ETag and Content-Encoding, bytes sent
    c.append("LogFormat \"%{msec}t\\t%H\\t%U\\t%>s\\t%{Range}i\\t%{If-Range}i\\t%{ETag}o\\t%{Content-Encoding}o\\t%O\" braid\n");
    c.append("CustomLog ").append(root.resolve("logs/access.log")).append(" braid\n");
    c.append("SSLSessionCache shmcb:").append(root.resolve("logs/ssl_scache")).append("(512000)\n");
    c.append("<VirtualHost 127.0.0.1:").append(https).append(">\n");
    c.append("  SSLEngine on\n");
    c.append("  SSLCertificateFile ").append(certificate.pemFile()).append('\n');
    c.append("  SSLCertificateKeyFile ").append(certificate.privateKeyPemFile()).append('\n');
    c.append("  Protocols h2 http/1.1\n");
    c.append("</VirtualHost>\n");
    return c.toString();
  }

  private static String apacheBinary() {
    Path sbin = Path.of("/usr/sbin/apache2");
    return Files.isExecutable(sbin) ? sbin.toString() : "apache2";
  }

  /** The document root: a file written at {@code htdocs/NAME} is served at {@code /NAME}. */
  Path docs() {
    return root.resolve("htdocs");
  }

  /** {@code http://127.0.0.1:PORT/path} (path without the leading slash). */
  String http(String path) {
    return "http://127.0.0.1:" + httpPort + "/" + path;
  }

  /** {@code https://127.0.0.1:PORT/path} on the TLS port (h2 and http/1.1 by ALPN). */
  String https(String path) {
    return "https://127.0.0.1:" + httpsPort + "/" + path;
  }

  /** What Apache logged so far, one entry per finished request. */
  AccessLog accessLog() throws IOException {
    return AccessLog.read(root.resolve("logs/access.log"));
  }

  /** The error log and the console output, for a failure's message. */
  String logs() {
    StringBuilder b = new StringBuilder();
    for (String name : List.of("logs/console.log", "logs/error.log")) {
      Path p = root.resolve(name);
      try {
        if (Files.exists(p)) {
          b.append(Files.readString(p, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        b.append("(cannot read ").append(p).append(": ").append(e.getMessage()).append(")\n");
      }
    }
    return b.toString();
  }

  @Override
  public void close() throws IOException {
    process.close();
  }
}
