package dev.braid.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the JDK's {@code keytool} when
 * created (no key material is kept in the source tree), valid for two days. Serve with
 * {@link TestServer#startTls(TestCertificate)}; a client trusts it through {@link #pemFile()}.
 */
public final class TestCertificate implements AutoCloseable {
  private static final String PASSWORD = "changeit";

  private final Path folder;
  private final Path pem;
  private final SSLContext serverContext;

  private TestCertificate(Path folder, Path pem, SSLContext serverContext) {
    this.folder = folder;
    this.pem = pem;
    this.serverContext = serverContext;
  }

  /** Generates a fresh key pair and certificate (about a second: keytool runs in a child JVM). */
  public static TestCertificate generate() throws IOException {
    Path folder = Files.createTempDirectory("braid-cert");
    Path keystore = folder.resolve("server.p12");
    Path pem = folder.resolve("server.pem");
    keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-dname", "CN=127.0.0.1",
        "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", keystore.toString(), "-storepass", PASSWORD);
    keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(), "-storepass", PASSWORD,
        "-file", pem.toString());
    try (InputStream in = Files.newInputStream(keystore)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, PASSWORD.toCharArray());
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(kmf.getKeyManagers(), null, null);
      return new TestCertificate(folder, pem, tls);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot load the generated key: " + e.getMessage(), e);
    }
  }

  private static void keytool(String... args) throws IOException {
    String[] cmd = new String[args.length + 1];
    cmd[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    System.arraycopy(args, 0, cmd, 1, args.length);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool failed: " + out);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while keytool ran", e);
    }
  }

  /**
   * The private key in PEM (PKCS #8, unencrypted), written on first call beside the certificate:
   * for a server that is not this JVM (Apache, lighttpd, ...), which reads a key file.
   */
  public synchronized Path privateKeyPemFile() throws IOException {
    Path key = folder.resolve("server.key");
    if (Files.exists(key)) {
      return key;
    }
    try (InputStream in = Files.newInputStream(folder.resolve("server.p12"))) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      byte[] pkcs8 = ks.getKey("server", PASSWORD.toCharArray()).getEncoded();
      String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs8);
      Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
          StandardCharsets.US_ASCII);
      return key;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read the generated key: " + e.getMessage(), e);
    }
  }

  /** The certificate in PEM, for a client's trust store ({@code --ca-cert}). */
  public Path pemFile() {
    return pem;
  }

  /** The server side: the key and certificate, with its own session cache. */
  public SSLContext serverContext() {
    return serverContext;
  }

  /** Deletes the generated files. */
  @Override
  public void close() throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
