package dev.braid.core.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apache.hc.client5.http.psl.PublicSuffixMatcherLoader;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.ssl.SSLContexts;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Builds the TLS stack (SSLContext, trust store) on the first https connection rather than when
 * the client is created: a download over plain http never pays for it, and an https one pays
 * while its TCP connection is already up. With extra CAs the context is {@linkplain #prepare made}
 * on a thread of its own from the start, and so is the JDK's default one when a front end knows an
 * https download comes first ({@link DefaultTls}); the first connection takes it from there. One
 * strategy, so one SSLContext and one session cache, serves every connection of the client (the
 * JDK's default context every client of the process): that is what lets later connections resume
 * a session.
 * Each handshake is timed, and whether it resumed is recorded, into the caller's {@link PhaseRecorder}.
 */
public final class LazyTlsStrategy implements TlsSocketStrategy {
  /** TLS 1.0 and 1.1 are never offered. */
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final Future<SSLContext> context;
  private final boolean insecure;
  private volatile TlsSocketStrategy delegate;

  /**
   * @param context the TLS context to use, being built (see {@link #prepare}), or null for
   *     the JDK's default ({@link DefaultTls})
   * @param insecure accept any certificate for any name (the user asked for it explicitly)
   */
  LazyTlsStrategy(Future<SSLContext> context, boolean insecure) {
    this.context = context;
    this.insecure = insecure;
  }

  @Override
  public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    long startMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    SSLSocket tls = delegate().upgrade(socket, target, port, attachment, context);
    PhaseRecorder.current().handshake(System.nanoTime() - start, resumed(tls.getSession(), startMillis));
    return tls;
  }

  /**
   * The JDK has no "was this resumed" flag, but a resumed handshake (TLS 1.2 session id or TLS 1.3
   * ticket) continues the earlier session, which keeps its creation time; a full handshake
   * creates its session now.
   */
  static boolean resumed(SSLSession session, long handshakeStartMillis) {
    return session.getCreationTime() < handshakeStartMillis;
  }

  /** The same strategy for the async (HTTP/2) client: the same context, so one session cache for both. */
  TlsStrategy forAsync() throws IOException {
    return (TlsStrategy) delegate();
  }

  private TlsSocketStrategy delegate() throws IOException {
    TlsSocketStrategy d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = build();
          delegate = d;
        }
      }
    }
    return d;
  }

  private TlsSocketStrategy build() throws IOException {
    if (insecure) {
      return new DefaultClientTlsStrategy(trustingEverything(), PROTOCOLS, null, null, HostnameVerificationPolicy.CLIENT,
          NoopHostnameVerifier.INSTANCE);
    }
    SSLContext c = context == null ? DefaultTls.context() : await(context);
    return new DefaultClientTlsStrategy(c, PROTOCOLS, null, null, HostnameVerificationPolicy.BOTH,
        HttpsSupport.getDefaultHostnameVerifier());
  }

  /** The context being built on its own thread (see {@link Uninterruptibly}). */
  static SSLContext await(Future<SSLContext> building) throws IOException {
    try {
      return Uninterruptibly.get(building);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  private static SSLContext trustingEverything() {
    X509TrustManager all = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // a client certificate is never asked of Braid's peers
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // --insecure: the user chose to accept any server
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    try {
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(null, new TrustManager[] {all}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no TLS", e);
    }
  }

  /**
   * The certificates in {@code pem}, read at once, so that a file that cannot be used is refused
   * before anything starts.
   *
   * @throws IOException when the file cannot be read or holds no certificate
   */
  public static List<Certificate> readCertificates(Path pem) throws IOException {
    List<Certificate> all;
    try (InputStream in = Files.newInputStream(pem)) {
      all = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
    } catch (CertificateException e) {
      throw new IOException("cannot use the CA certificates in " + pem + ": " + e.getMessage(), e);
    } catch (NoSuchFileException e) {
      throw new IOException("the CA certificate file " + pem + " does not exist", e);
    } catch (IOException e) {
      throw new IOException("cannot read the CA certificates in " + pem + ": " + e, e);
    }
    if (all.isEmpty()) {
      throw new IOException(pem + " holds no certificate");
    }
    return all;
  }

  /**
   * What a first https connection needs, made ahead on the caller's thread: the context (the
   * JDK's default, or one that also trusts {@code extra} when it is not null) and the public
   * suffix list that the host name check reads (about 15,000 lines, parsed once per process; it
   * took ~20 ms at the end of the first handshake).
   *
   * @throws IOException when TLS cannot be set up
   */
  public static SSLContext prepare(List<Certificate> extra) throws IOException {
    PublicSuffixMatcherLoader.getDefault();
    if (extra != null) {
      return contextTrusting(extra);
    }
    try {
      return SSLContexts.createDefault();
    } catch (RuntimeException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /**
   * An SSLContext that trusts the JDK's CAs plus {@code extra}. Reading the JDK's CAs (about 140)
   * takes a tenth of a second at start-up, so {@code Braid} builds this on a thread of its own
   * while the rest starts.
   *
   * @throws IOException when the JDK's trust store or TLS cannot be set up with them
   */
  public static SSLContext contextTrusting(List<Certificate> extra) throws IOException {
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
      for (Certificate c : extra) {
        trusted.setCertificateEntry("user-" + own++, c);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS with the given CA certificates: " + e.getMessage(), e);
    }
  }
}
