package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.seconds;
import static dev.braid.cli.CommandModel.secondsText;
import static dev.braid.cli.CommandModel.set;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.HttpVersion;
import dev.braid.core.InvalidRequestException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The options of {@code braid get} about how to reach the server: headers, credentials, timeouts, TLS, proxies. */
final class ConnectionOptions {
  private final OptionSpec headers = repeatable("'NAME: VALUE'",
      "send this header to the URL's host (repeatable); never to a host a redirect leads to", "-H", "--header").build();

  private final OptionSpec userAgent = option(String.class, "UA", "the User-Agent header", "-A", "--user-agent").build();

  private final OptionSpec user = option(String.class, "USER:PASSWORD", "basic authentication for the URL's host",
      "-u", "--user").build();

  private final OptionSpec bearer = option(String.class, "TOKEN", "Authorization: Bearer TOKEN for the URL's host",
      "--bearer").build();

  private final OptionSpec tlsTimeout = option(double.class, "SECONDS", "TLS handshake limit (default: ${DEFAULT-VALUE})",
      "--tls-timeout").defaultValue(secondsText(Braid.DEFAULT_TLS_HANDSHAKE_TIMEOUT)).build();

  private final OptionSpec firstByteTimeout = option(double.class, "SECONDS",
      "retry a request whose response has not begun after this long (default: ${DEFAULT-VALUE})",
      "--first-byte-timeout").defaultValue(secondsText(Braid.DEFAULT_FIRST_BYTE_TIMEOUT)).build();

  private final OptionSpec deadline = option(Double.class, "SECONDS",
      "give up on a download not done after this long, its progress kept (get exits 3) (default: none)", "--deadline").build();

  private final OptionSpec insecure = flag("accept any TLS certificate (DANGEROUS: prefer --ca-cert)", "-k", "--insecure")
      .build();

  private final OptionSpec proxy = option(String.class, "URL",
      "connect through http://HOST:PORT (CONNECT for https) or socks5://HOST:PORT; credentials as"
          + " http://USER:PASSWORD@HOST:PORT (percent-encode @ : / # %%), sent to the proxy only"
          + " (default: $http_proxy / $https_proxy / $all_proxy); with a braid daemon, these downloads' own",
      "--proxy").build();

  private final OptionSpec http2 = flag("HTTP/2 for https URLs: a download's ranges as streams of one connection"
      + " (fails where the server does not offer HTTP/2; plain http and proxied targets stay on HTTP/1.1)", "--http2")
      .build();

  private final OptionSpec http11 = flag("HTTP/1.1 on several connections (the default)", "--http1.1").build();

  private final OptionSpec httpAuto = flag("per https host, HTTP/2 or HTTP/1.1, whichever measured faster"
      + " (large downloads take turns measuring them; remembered in the state database)", "--http-auto").build();

  private final OptionSpec noProxy = option(String.class, "HOSTS",
      "comma-separated hosts or domains reached directly (default: $no_proxy)", "--no-proxy").build();

  /** Whether {@code --insecure} was given. */
  boolean insecure() {
    return isSet(insecure);
  }

  /** Whether {@code --proxy} was given (it then applies to every host, whatever the rules say). */
  boolean proxyGiven() {
    return proxy.getValue() != null;
  }

  /**
   * The requests as a braid daemon gets them: the daemon has a proxy of its own, so {@code --proxy}
   * goes along as each download's own (aria2's {@code all-proxy}), for every host, whatever the
   * daemon's proxy and rules say. {@code --no-proxy} has no per-download form and is refused with it.
   */
  List<DownloadRequest> forDaemon(List<DownloadRequest> requests) throws InvalidRequestException {
    return withOwnProxy(requests, "the braid daemon");
  }

  /**
   * The requests as {@code get --detach} leaves them in the queue for a later daemon: as
   * {@link #forDaemon}, and a proxy's password refused, since nothing secret is stored and this
   * process ends before a daemon takes them.
   */
  List<DownloadRequest> forQueue(List<DownloadRequest> requests) throws InvalidRequestException {
    String url = proxy.getValue();
    if (url != null && url.contains("@")) {
      throw new InvalidRequestException("--proxy with a user and password cannot go into the queue for a later"
          + " braid daemon (nothing secret is stored): give that daemon its --proxy, or start it before braid get");
    }
    return withOwnProxy(requests, "the queue");
  }

  private List<DownloadRequest> withOwnProxy(List<DownloadRequest> requests, String where) throws InvalidRequestException {
    String url = proxy.getValue();
    if (url == null) {
      return requests;
    }
    if (noProxy.getValue() != null) {
      throw new InvalidRequestException("--proxy goes to " + where + " as the downloads' own proxy, for every host;"
          + " --no-proxy cannot go with it (give the daemon its --proxy and --no-proxy instead)");
    }
    List<DownloadRequest> out = new ArrayList<>();
    try {
      for (DownloadRequest r : requests) {
        out.add(r.toBuilder().proxy(url).build());
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("--proxy: " + e.getMessage(), e);
    }
    return out;
  }

  /** An explicit {@code --user-agent} as the request's own header too, so that it wins over a rule's for that origin. */
  void userAgentTo(DownloadRequestBuilder request) {
    String ua = userAgent.getValue();
    if (ua != null) {
      request.header("User-Agent", ua);
    }
  }

  /** Adds these options to a command's model. */
  void addTo(CommandSpec spec) {
    for (OptionSpec o : List.of(headers, userAgent, user, bearer, tlsTimeout, firstByteTimeout, deadline, insecure,
        proxy, http2, http11, httpAuto, noProxy)) {
      spec.addOption(o);
    }
  }

  /** Adds only the options of the engine (no per-request headers or credentials): for {@code braid daemon}. */
  void addEngineOptionsTo(CommandSpec spec) {
    for (OptionSpec o : List.of(userAgent, tlsTimeout, firstByteTimeout, deadline, insecure, proxy, http2, http11, httpAuto,
        noProxy)) {
      spec.addOption(o);
    }
  }

  /** Checks the forms of --header and --user before any request is built. */
  void validate() throws InvalidRequestException {
    if ((isSet(http2) ? 1 : 0) + (isSet(http11) ? 1 : 0) + (isSet(httpAuto) ? 1 : 0) > 1) {
      throw new InvalidRequestException("--http2, --http1.1 and --http-auto exclude each other");
    }
    for (String h : strings(headers)) {
      if (h.indexOf(':') <= 0) {
        throw new InvalidRequestException("--header needs 'Name: value', got a value without a colon");
      }
    }
    String user = this.user.getValue();
    if (user != null && user.indexOf(':') < 0) {
      // the value itself is a credential: the message does not repeat it
      throw new InvalidRequestException("--user needs USER:PASSWORD");
    }
  }

  /** Headers and credentials of a request (each request's own origin gets them); {@link #validate()} first. */
  void applyTo(DownloadRequestBuilder request) {
    for (String h : strings(headers)) {
      int colon = h.indexOf(':');
      request.header(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
    }
    String user = this.user.getValue();
    if (user != null) {
      int colon = user.indexOf(':');
      request.basicAuth(user.substring(0, colon), user.substring(colon + 1));
    }
    String bearer = this.bearer.getValue();
    if (bearer != null) {
      request.bearerToken(bearer);
    }
  }

  /** Timeouts, TLS trust and proxies of the client; warns on {@code err} when verification is off. */
  void applyTo(BraidBuilder braid, Map<String, String> environment, PrintStream err) throws InvalidRequestException {
    set(tlsTimeout, () -> braid.tlsHandshakeTimeout(seconds(tlsTimeout)));
    set(firstByteTimeout, () -> braid.firstByteTimeout(seconds(firstByteTimeout)));
    if (deadline.getValue() != null) {
      set(deadline, () -> braid.deadline(seconds(deadline)));
    }
    try {
      braid.httpVersion(isSet(http2) ? HttpVersion.HTTP_2 : isSet(httpAuto) ? HttpVersion.AUTO : HttpVersion.HTTP_1_1);
      String userAgent = this.userAgent.getValue();
      if (userAgent != null) {
        braid.userAgent(userAgent);
      }
      String proxy = this.proxy.getValue();
      String noProxy = this.noProxy.getValue();
      if (proxy != null) {
        braid.proxy(proxy, noProxy != null ? noProxy : environment.getOrDefault("no_proxy", environment.get("NO_PROXY")));
      } else {
        braid.proxyFromEnvironment(noProxy == null ? environment : withNoProxy(environment, noProxy));
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
    if (isSet(insecure)) {
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
}
