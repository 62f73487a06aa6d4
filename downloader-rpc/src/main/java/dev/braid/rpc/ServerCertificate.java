package dev.braid.rpc;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.util.io.pem.PemHeader;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * The certificate chain and private key an {@link RpcServer} serves HTTPS with
 * ({@link RpcSettings.Builder#certificate}), read from PEM files as aria2's
 * {@code --rpc-certificate} and {@code --rpc-private-key}, or certbot's {@code fullchain.pem}
 * and {@code privkey.pem}: the chain, leaf first; the key unencrypted, as PKCS#8
 * ({@code BEGIN PRIVATE KEY}), PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or SEC 1
 * ({@code BEGIN EC PRIVATE KEY}). The JDK reads certificates and PKCS#8 keys; Bouncy Castle's
 * ASN.1 classes (bcprov, a dependency already) turn the two older key forms into PKCS#8, so
 * bcpkix's PEM converters are not needed.
 */
public final class ServerCertificate {
  private final SSLContext context;
  private final X509Certificate leaf;

  private ServerCertificate(SSLContext context, X509Certificate leaf) {
    this.context = context;
    this.leaf = leaf;
  }

  /** Why a certificate or key file cannot be served with: the message names the file and what is wrong with it. */
  public static final class UnusableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnusableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Reads {@code chainFile} and {@code keyFile} and checks that the key is the certificate's.
   *
   * @throws UnusableException when a file cannot be read, holds no certificate or no key, the key
   *     is encrypted or of another kind, or does not belong to the certificate
   */
  public static ServerCertificate read(Path chainFile, Path keyFile) throws UnusableException {
    List<X509Certificate> chain = chain(chainFile);
    X509Certificate leaf = chain.get(0);
    PrivateKey key = key(keyFile, leaf.getPublicKey().getAlgorithm());
    if (!belongTogether(key, leaf)) {
      throw new UnusableException("the private key in " + keyFile + " is not the key of the certificate in " + chainFile
          + " (" + leaf.getSubjectX500Principal().getName() + ")", null);
    }
    try {
      // a key store in memory only, for the key manager: its password guards nothing
      char[] password = "braid".toCharArray();
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("braid", key, password, chain.toArray(X509Certificate[]::new));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return new ServerCertificate(context, leaf);
    } catch (GeneralSecurityException | IOException e) {
      throw new UnusableException("cannot serve TLS with " + chainFile + " and " + keyFile + ": " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> chain(Path file) throws UnusableException {
    List<X509Certificate> chain = new ArrayList<>();
    try {
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      for (PemObject o : pem(file)) {
        if (o.getType().equals("CERTIFICATE")) {
          chain.add((X509Certificate) x509.generateCertificate(new java.io.ByteArrayInputStream(o.getContent())));
        }
      }
    } catch (GeneralSecurityException e) {
      throw new UnusableException("the certificate file " + file + " holds a certificate that cannot be read: "
          + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new UnusableException("the certificate file " + file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
          null);
    }
    return chain;
  }

  private static PrivateKey key(Path file, String algorithm) throws UnusableException {
    for (PemObject o : pem(file)) {
      // PKCS#8's ENCRYPTED PRIVATE KEY, or an older form's Proc-Type: 4,ENCRYPTED header
      boolean encrypted = o.getType().contains("ENCRYPTED");
      for (Object h : o.getHeaders()) {
        encrypted |= ((PemHeader) h).getValue().contains("ENCRYPTED");
      }
      if (encrypted) {
        throw new UnusableException("the private key in " + file + " is encrypted: give braid an unencrypted copy,"
            + " readable by its user only (openssl pkey -in " + file + " -out KEY.pem)", null);
      }
      byte[] pkcs8 = pkcs8(o, file);
      if (pkcs8 != null) {
        try {
          return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
          throw new UnusableException("the private key in " + file + " cannot be read as the certificate's kind of key ("
              + algorithm + "): " + e.getMessage(), e);
        }
      }
    }
    throw new UnusableException("the key file " + file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----,"
        + " RSA PRIVATE KEY or EC PRIVATE KEY)", null);
  }

  /** A PEM block's key as PKCS#8, or null when the block is no private key. */
  private static byte[] pkcs8(PemObject o, Path file) throws UnusableException {
    try {
      return switch (o.getType()) {
        case "PRIVATE KEY" -> o.getContent();
        case "RSA PRIVATE KEY" -> new PrivateKeyInfo(
            new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
            RSAPrivateKey.getInstance(o.getContent())).getEncoded();
        case "EC PRIVATE KEY" -> {
          ECPrivateKey ec = ECPrivateKey.getInstance(o.getContent());
          yield new PrivateKeyInfo(new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, ec.getParametersObject()),
              ec).getEncoded();
        }
        default -> null;
      };
    } catch (IOException | IllegalArgumentException e) {
      throw new UnusableException("the private key in " + file + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** The PEM blocks of {@code file}, in order; anything between them is skipped. */
  private static List<PemObject> pem(Path file) throws UnusableException {
    List<PemObject> blocks = new ArrayList<>();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PemReader pem = new PemReader(r)) {
      for (PemObject o = pem.readPemObject(); o != null; o = pem.readPemObject()) {
        blocks.add(o);
      }
    } catch (IOException | RuntimeException e) {
      throw new UnusableException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return blocks;
  }

  /** Whether {@code key} signs what the certificate's public key verifies; true for a kind of key not checked here. */
  private static boolean belongTogether(PrivateKey key, X509Certificate leaf) throws UnusableException {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
      default -> null;
    };
    if (algorithm == null) {
      // the TLS handshake checks it
      return true;
    }
    try {
      byte[] probe = "braid".getBytes(StandardCharsets.US_ASCII);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(leaf.getPublicKey());
      verify.update(probe);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      throw new UnusableException("cannot check the private key against the certificate: " + e.getMessage(), e);
    }
  }

  /** The TLS context that serves this chain with this key. */
  SSLContext context() {
    return context;
  }

  /** The SHA-256 of the leaf certificate (its DER form), in lower-case hex: what a client may pin. */
  public String sha256() {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(leaf.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("a certificate read once can be encoded again", e);
    }
  }

  /** When the leaf certificate expires: a browser refuses it after. */
  public Instant notAfter() {
    return leaf.getNotAfter().toInstant();
  }
}
