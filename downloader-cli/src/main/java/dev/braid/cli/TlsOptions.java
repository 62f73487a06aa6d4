package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;

import dev.braid.core.InvalidRequestException;
import dev.braid.rpc.ServerCertificate;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code braid daemon}'s TLS options, as aria2's: {@code --rpc-certificate}, {@code --rpc-private-key},
 * {@code --rpc-secure}; and {@code --rpc-insecure}, without which {@code --rpc-listen-all} refuses
 * to serve plain HTTP to the network.
 */
final class TlsOptions {
  private final OptionSpec certificate = option(Path.class, "FILE",
      "serve the RPC and the console over HTTPS with this PEM certificate chain, leaf first (certbot's fullchain.pem)",
      "--rpc-certificate").build();

  private final OptionSpec privateKey = option(Path.class, "FILE",
      "the certificate's PEM private key, unencrypted: PKCS#8, PKCS#1 RSA or EC (certbot's privkey.pem)",
      "--rpc-private-key").build();

  private final OptionSpec secure = option(Boolean.class, "BOOL",
      "as aria2: serve TLS (implied by --rpc-certificate; true needs it, false refuses it)", "--rpc-secure")
      .arity("0..1").fallbackValue("true").build();

  private final OptionSpec insecure = flag("with --rpc-listen-all: serve plain HTTP to the network anyway, where anyone"
      + " on the way can read the secret (a warning is printed)", "--rpc-insecure").build();

  void addTo(CommandSpec spec) {
    for (OptionSpec o : List.of(certificate, privateKey, secure, insecure)) {
      spec.addOption(o);
    }
  }

  /**
   * The certificate the options ask to serve TLS with, read and checked, or null for plain HTTP;
   * refuses contradicting options, and {@code listenAll} with neither TLS nor --rpc-insecure.
   */
  ServerCertificate read(boolean listenAll) throws InvalidRequestException {
    Path chain = certificate.getValue();
    Path key = privateKey.getValue();
    boolean given = chain != null || key != null;
    if (Boolean.FALSE.equals(secure.getValue()) && given) {
      throw new InvalidRequestException("--rpc-secure=false contradicts --rpc-certificate and --rpc-private-key");
    }
    if ((given || Boolean.TRUE.equals(secure.getValue())) && (chain == null || key == null)) {
      throw new InvalidRequestException("TLS needs both --rpc-certificate FILE and --rpc-private-key FILE (PEM)");
    }
    if (given && isSet(insecure)) {
      throw new InvalidRequestException("--rpc-insecure contradicts --rpc-certificate: leave it out to serve TLS");
    }
    if (listenAll && !given && !isSet(insecure)) {
      throw new InvalidRequestException("--rpc-listen-all opens the RPC to the network: serve it over TLS with"
          + " --rpc-certificate FILE --rpc-private-key FILE, or give --rpc-insecure to serve plain HTTP anyway");
    }
    if (!given) {
      return null;
    }
    try {
      return ServerCertificate.read(chain, key);
    } catch (ServerCertificate.UnusableException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
  }

  /** What the daemon says at its start of how the network reaches it: the warning of --rpc-insecure, an expired certificate. */
  void describe(ServerCertificate tls, boolean listenAll, int port, PrintStream err) {
    if (tls != null && tls.notAfter().isBefore(Instant.now())) {
      err.println("braid: WARNING: the certificate in " + certificate.getValue() + " expired at " + tls.notAfter()
          + ": browsers refuse it");
    }
    if (listenAll && tls == null) {
      err.println("braid: WARNING: --rpc-insecure: the RPC port " + port + " is open to the network over plain HTTP:"
          + " anyone on the way can read the secret or key each call carries, and use it; serve TLS with"
          + " --rpc-certificate FILE --rpc-private-key FILE instead");
    } else if (listenAll) {
      err.println("braid: --rpc-listen-all: the RPC port " + port + " is open to the network over HTTPS; each call"
          + " needs the secret or an API key (braid keys)");
    }
  }

  /** This machine's name, as another machine on the network may reach it (the console answers to it, and to addresses). */
  static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "THIS-MACHINE";
    }
  }
}
