package dev.braid.client;

import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Host rules as the defaults of a request, as the daemon applies them to an add: the rule of the
 * URL's host gives what the request leaves at its default (connections, their cap, the speed
 * limit, headers it does not set), and the URL's category gives the folder of a request that
 * names none. What the face set on the request wins, whichever side runs the engine.
 */
public final class RuleDefaults {
  private final Rules rules;

  /**
   * Rules to apply.
   *
   * @param rules the host rules and categories ({@link Rules#NONE} for none)
   */
  public RuleDefaults(Rules rules) {
    if (rules == null) {
      throw new IllegalArgumentException("rules cannot be null (Rules.NONE for none)");
    }
    this.rules = rules;
  }

  /**
   * {@return {@code request} with the rules of its URL under it}
   *
   * @param request what the face asked for
   * @throws InvalidRequestException when the rules make it invalid (a header a rule sets that the request refuses)
   */
  public DownloadRequest apply(DownloadRequest request) throws InvalidRequestException {
    String url = request.uri().toString();
    HostSettings host = rules.forUrl(url);
    DownloadRequestBuilder b = request.toBuilder();
    if (request.connections().isEmpty()) {
      host.connections().ifPresent(b::connections);
    }
    if (request.maxConnections() == DownloadRequest.DEFAULT_MAX_CONNECTIONS) {
      host.maxConnections().ifPresent(b::maxConnections);
    }
    if (request.rateLimit() == 0) {
      host.rateLimit().ifPresent(b::rateLimit);
    }
    Set<String> given = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    given.addAll(request.headers().keySet());
    for (Map.Entry<String, String> h : host.headers().entrySet()) {
      if (!given.contains(h.getKey())) {
        b.header(h.getKey(), h.getValue());
      }
    }
    if (!given.contains("user-agent")) {
      host.userAgent().ifPresent(ua -> b.header("User-Agent", ua));
    }
    if (!request.directoryGiven() && request.file().isEmpty()) {
      Optional<Category> c = rules.categoryFor(url);
      c.ifPresent(category -> b.directory(category.folder()));
    }
    return b.build();
  }
}
