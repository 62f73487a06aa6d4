package dev.braid.client.remote;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in exactly one certificate: the one a daemon serves TLS with, whose SHA-256 it wrote
 * beside its state database when it started ({@link DaemonLink#announce}). A local client reaches
 * such a daemon on 127.0.0.1, which a certificate made for the machine's name (or self-signed)
 * does not name, and which no authority vouches for; the pin, read from a file of its user's,
 * says more than either: it is that daemon. Being an {@link X509ExtendedTrustManager}, it is the
 * whole check (the JDK adds no host name check of its own).
 */
final class PinnedCertificate extends X509ExtendedTrustManager {
  private final byte[] sha256;

  private PinnedCertificate(byte[] sha256) {
    this.sha256 = sha256;
  }

  /** A TLS context that trusts only the certificate whose DER form has the SHA-256 {@code pin} (hex). */
  static SSLContext context(String pin) throws GeneralSecurityException {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new PinnedCertificate(HexFormat.of().parseHex(pin))}, null);
    return tls;
  }

  private void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the braid daemon showed no certificate");
    }
    try {
      byte[] shown = MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded());
      if (!MessageDigest.isEqual(shown, sha256)) {
        throw new CertificateException("the server on the daemon's port shows another certificate than the daemon"
            + " announced (SHA-256 " + HexFormat.of().formatHex(shown) + "): not that daemon");
      }
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new CertificateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("a client of the daemon checks servers only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    throw new CertificateException("a client of the daemon checks servers only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    throw new CertificateException("a client of the daemon checks servers only");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
