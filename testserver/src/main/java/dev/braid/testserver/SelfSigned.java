package dev.braid.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for localhost and 127.0.0.1 and its private key, as PEM files made by
 * {@code openssl} (some 0.1 s; {@link TestCertificate}'s keytool takes a second): what a user
 * gives a server that reads PEM. Its key also in the older forms openssl and certbot write
 * ({@link #traditionalKey}), and encrypted ({@link #encryptedKey}).
 */
public final class SelfSigned {
  private final Path folder;
  private final Path certificate;
  private final Path key;

  private SelfSigned(Path folder, Path certificate, Path key) {
    this.folder = folder;
    this.certificate = certificate;
    this.key = key;
  }

  /**
   * Makes a key of {@code algorithm} ({@code "rsa"}: 2048 bits, or {@code "ec"}: P-256) and its
   * certificate, valid two days, in {@code folder} (as {@code NAME.crt} and {@code NAME.key}, PKCS#8).
   */
  public static SelfSigned make(Path folder, String name, String algorithm) throws IOException {
    Path crt = folder.resolve(name + ".crt");
    Path key = folder.resolve(name + ".key");
    List<String> args = new ArrayList<>(List.of("req", "-x509", "-nodes", "-days", "2", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.toString(), "-out", crt.toString()));
    if (algorithm.equals("rsa")) {
      args.addAll(List.of("-newkey", "rsa:2048"));
    } else if (algorithm.equals("ec")) {
      args.addAll(List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"));
    } else {
      throw new IllegalArgumentException("rsa or ec, not " + algorithm);
    }
    openssl(args);
    return new SelfSigned(folder, crt, key);
  }

  /** The certificate, PEM. */
  public Path certificate() {
    return certificate;
  }

  /** A client that trusts this certificate alone, as a browser told to trust it would. */
  public HttpClient trustingClient() throws IOException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      try (InputStream in = Files.newInputStream(certificate)) {
        store.setCertificateEntry("daemon", CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot trust " + certificate, e);
    }
  }

  /** The private key, PEM PKCS#8 ({@code BEGIN PRIVATE KEY}). */
  public Path privateKey() {
    return key;
  }

  /** The private key in its algorithm's own form: PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or SEC 1 ({@code BEGIN EC PRIVATE KEY}). */
  public Path traditionalKey() throws IOException {
    Path out = folder.resolve(key.getFileName() + ".traditional");
    openssl(List.of("pkey", "-in", key.toString(), "-traditional", "-out", out.toString()));
    return out;
  }

  /**
   * The private key encrypted with the passphrase "secret": PKCS#8's {@code BEGIN ENCRYPTED PRIVATE
   * KEY}, or ({@code traditional}) the older form with a {@code Proc-Type: 4,ENCRYPTED} header.
   */
  public Path encryptedKey(boolean traditional) throws IOException {
    Path out = folder.resolve(key.getFileName() + (traditional ? ".traditional" : "") + ".encrypted");
    List<String> args = new ArrayList<>(List.of("pkey", "-in", key.toString(), "-aes256", "-passout", "pass:secret",
        "-out", out.toString()));
    if (traditional) {
      args.add("-traditional");
    }
    openssl(args);
    return out;
  }

  private static void openssl(List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("openssl"));
    cmd.addAll(args);
    Path log = Files.createTempFile("braid-openssl-", ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException("openssl failed: " + String.join(" ", cmd) + "\n" + Files.readString(log));
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while openssl ran", e);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
