package dev.braid.core.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Builds the TLS stack (SSLContext, trust store) on the first https connection rather than when
 * the client is created: a download over plain http never pays for it, and an https one pays
 * while its TCP connection is already up. One strategy, so one SSLContext and one session cache,
 * serves every connection of the client.
 */
public final class LazyTlsStrategy implements TlsSocketStrategy {
  private final SSLContext context;
  private volatile TlsSocketStrategy delegate;

  /** @param context the TLS context to use (see {@link #contextTrusting}), or null for the JDK's default, built on first use */
  LazyTlsStrategy(SSLContext context) {
    this.context = context;
  }

  @Override
  public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    return delegate().upgrade(socket, target, port, attachment, context);
  }

  private TlsSocketStrategy delegate() {
    TlsSocketStrategy d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = context == null ? DefaultClientTlsStrategy.createDefault() : new DefaultClientTlsStrategy(context);
          delegate = d;
        }
      }
    }
    return d;
  }

  /**
   * An SSLContext that trusts the JDK's CAs plus every certificate in {@code pem}.
   *
   * @throws IOException when the file cannot be read or holds no usable certificate
   */
  public static SSLContext contextTrusting(Path pem) throws IOException {
    try {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      jdk.init((KeyStore) null);
      int n = 0;
      for (var tm : jdk.getTrustManagers()) {
        if (tm instanceof javax.net.ssl.X509TrustManager x) {
          for (var issuer : x.getAcceptedIssuers()) {
            trusted.setCertificateEntry("jdk-" + n++, issuer);
          }
        }
      }
      int own = 0;
      try (InputStream in = Files.newInputStream(pem)) {
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
          trusted.setCertificateEntry("user-" + own++, c);
        }
      }
      if (own == 0) {
        throw new IOException(pem + " holds no certificate");
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot use the CA certificates in " + pem + ": " + e.getMessage(), e);
    }
  }
}
