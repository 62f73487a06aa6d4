package dev.braid.rules;

import dev.braid.core.ByteSize;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.HostPattern;
import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the rules do to one URL, as lines for a person: which rules matched, each setting they
 * give, and the category's folder. Header values and proxy credentials are not shown (they may be
 * secrets); header names are.
 */
public final class RulesReport {
  private RulesReport() {}

  /** The report for {@code url}. */
  public static List<String> describe(Rules rules, String url) {
    List<String> out = new ArrayList<>();
    String host = host(url);
    if (host == null) {
      out.add("not a URL with a host: " + url);
      return out;
    }
    HostSettings s = rules.forHost(host);
    out.add("host " + host + ": " + (s.matched().isEmpty() ? "no host rule matches"
        : "rules " + s.matched().stream().map(HostPattern::toString).collect(Collectors.joining(", "))
            + " (most specific first)"));
    s.connections().ifPresent(n -> out.add("  connections = " + n));
    s.maxConnections().ifPresent(n -> out.add("  max-connections = " + n));
    s.maxConnectionsPerHost().ifPresent(n -> out.add("  max-connections-per-host = " + n));
    s.rateLimit().ifPresent(n -> out.add("  rate-limit = " + ByteSize.format(n) + " per download"));
    s.userAgent().ifPresent(ua -> out.add("  user-agent = " + ua));
    s.proxy().ifPresent(p -> out.add("  proxy = " + withoutCredentials(p)));
    if (!s.headers().isEmpty()) {
      out.add("  headers: " + String.join(", ", s.headers().keySet()) + " (values not shown)");
    }
    Optional<Category> c = rules.categoryFor(url);
    out.add(c.map(cat -> "category " + cat.name() + ": folder " + cat.folder())
        .orElse("no category matches: the default folder"));
    return out;
  }

  private static String host(String url) {
    try {
      return new URI(url.strip()).getHost();
    } catch (URISyntaxException e) {
      return null;
    }
  }

  private static String withoutCredentials(String proxy) {
    int at = proxy.lastIndexOf('@');
    int scheme = proxy.indexOf("://");
    return at < 0 ? proxy : proxy.substring(0, scheme < 0 ? 0 : scheme + 3) + "***@" + proxy.substring(at + 1);
  }
}
