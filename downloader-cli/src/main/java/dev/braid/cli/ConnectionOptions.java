package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadRequest;
import dev.braid.core.HttpVersion;
import dev.braid.core.InvalidRequestException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options of {@code braid get} about how to reach the server: headers, credentials, timeouts, TLS, proxies. */
final class ConnectionOptions {
  @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
      description = "send this header to the URL's host (repeatable); never to a host a redirect leads to")
  List<String> headers = new ArrayList<>();

  @Option(names = {"-A", "--user-agent"}, paramLabel = "UA", description = "the User-Agent header")
  String userAgent;

  @Option(names = {"-u", "--user"}, paramLabel = "USER:PASSWORD", description = "basic authentication for the URL's host")
  String user;

  @Option(names = "--bearer", paramLabel = "TOKEN", description = "Authorization: Bearer TOKEN for the URL's host")
  String bearer;

  @Option(names = "--tls-timeout", paramLabel = "SECONDS", description = "TLS handshake limit (default: ${DEFAULT-VALUE})")
  double tlsTimeout = 15;

  @Option(names = "--first-byte-timeout", paramLabel = "SECONDS",
      description = "retry a request whose response has not begun after this long (default: ${DEFAULT-VALUE})")
  double firstByteTimeout = 30;

  @Option(names = "--deadline", paramLabel = "SECONDS",
      description = "stop (exit 3, progress kept) if the download is not done after this long (default: none)")
  Double deadline;

  @Option(names = {"-k", "--insecure"}, description = "accept any TLS certificate (DANGEROUS: prefer --ca-cert)")
  boolean insecure;

  @Option(names = "--proxy", paramLabel = "URL",
      description = "connect through http://HOST:PORT (CONNECT for https) or socks5://HOST:PORT; credentials as"
          + " http://USER:PASSWORD@HOST:PORT (percent-encode @ : / # %%), sent to the proxy only"
          + " (default: $http_proxy / $https_proxy / $all_proxy)")
  String proxy;

  @Option(names = "--http2", description = "HTTP/2 for https URLs: a download's ranges as streams of one connection"
      + " (fails where the server does not offer HTTP/2; plain http and proxied targets stay on HTTP/1.1)")
  boolean http2;

  @Option(names = "--http1.1", description = "HTTP/1.1 on several connections (the default)")
  boolean http11;

  @Option(names = "--http-auto", description = "per https host, HTTP/2 or HTTP/1.1, whichever measured faster"
      + " (large downloads take turns measuring them; remembered in the state database)")
  boolean httpAuto;

  @Option(names = "--no-proxy", paramLabel = "HOSTS", description = "comma-separated hosts or domains reached directly (default: $no_proxy)")
  String noProxy;

  /** Checks the forms of --header and --user before any request is built. */
  void validate() throws InvalidRequestException {
    if ((http2 ? 1 : 0) + (http11 ? 1 : 0) + (httpAuto ? 1 : 0) > 1) {
      throw new InvalidRequestException("--http2, --http1.1 and --http-auto exclude each other");
    }
    for (String h : headers) {
      if (h.indexOf(':') <= 0) {
        throw new InvalidRequestException("--header needs 'Name: value', got a value without a colon");
      }
    }
    if (user != null && user.indexOf(':') < 0) {
      // the value itself is a credential: the message does not repeat it
      throw new InvalidRequestException("--user needs USER:PASSWORD");
    }
  }

  /** Headers and credentials of a request (each request's own origin gets them); {@link #validate()} first. */
  void applyTo(DownloadRequest.Builder request) {
    for (String h : headers) {
      int colon = h.indexOf(':');
      request.header(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
    }
    if (user != null) {
      int colon = user.indexOf(':');
      request.basicAuth(user.substring(0, colon), user.substring(colon + 1));
    }
    if (bearer != null) {
      request.bearerToken(bearer);
    }
  }

  /** Timeouts, TLS trust and proxies of the client; warns on {@code err} when verification is off. */
  void applyTo(Braid.Builder braid, Map<String, String> environment, PrintStream err) throws InvalidRequestException {
    try {
      braid.tlsHandshakeTimeout(seconds(tlsTimeout)).firstByteTimeout(seconds(firstByteTimeout))
          .httpVersion(http2 ? HttpVersion.HTTP_2 : httpAuto ? HttpVersion.AUTO : HttpVersion.HTTP_1_1);
      if (deadline != null) {
        braid.deadline(seconds(deadline));
      }
      if (userAgent != null) {
        braid.userAgent(userAgent);
      }
      if (proxy != null) {
        braid.proxy(proxy, noProxy != null ? noProxy : environment.getOrDefault("no_proxy", environment.get("NO_PROXY")));
      } else {
        braid.proxyFromEnvironment(noProxy == null ? environment : withNoProxy(environment, noProxy));
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
    if (insecure) {
      braid.insecure(true);
      // printed even with --quiet: the user must not forget that nothing is verified
      err.println("braid: WARNING: --insecure: TLS certificates and host names are NOT verified; anyone on the"
          + " network path can read or change this download");
    }
  }

  private static Map<String, String> withNoProxy(Map<String, String> env, String noProxy) {
    var copy = new java.util.HashMap<>(env);
    copy.put("no_proxy", noProxy);
    return copy;
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis((long) (s * 1000));
  }
}
