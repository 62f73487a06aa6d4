package dev.braid.core.rules;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A user's per-host rules and categories, and the matching of a URL against them.
 *
 * <p>Host rules: every rule whose {@link HostPattern} matches the URL's host applies; for each
 * setting the most specific rule that sets it wins (an exact host over {@code *.domain} over
 * {@code .domain} over {@code *}; a longer domain over a shorter one), and headers merge by name
 * the same way. Categories: among those that match, one that names the host beats one that only
 * names file types; between two that name it, the more specific host pattern; then one that also
 * names types; then the earlier in the list. Immutable and safe to share between threads.
 */
public final class Rules {
  /** No rules: every URL gets the defaults. */
  public static final Rules NONE = new Rules(List.of(), List.of(), true);

  private final List<HostRule> hostRules;
  private final List<Category> categories;
  private final boolean proxies;

  private Rules(List<HostRule> hostRules, List<Category> categories, boolean proxies) {
    this.hostRules = hostRules;
    this.categories = categories;
    this.proxies = proxies;
  }

  /**
   * Rules of {@code hostRules} and {@code categories}, in the order given (the order decides only
   * between equally specific categories).
   *
   * @throws IllegalArgumentException when two host rules have the same pattern or two categories the same name
   */
  public static Rules of(List<HostRule> hostRules, List<Category> categories) {
    Objects.requireNonNull(hostRules, "hostRules");
    Objects.requireNonNull(categories, "categories");
    Set<HostPattern> patterns = new HashSet<>();
    for (HostRule r : hostRules) {
      if (!patterns.add(Objects.requireNonNull(r, "a rule in hostRules").pattern())) {
        throw new IllegalArgumentException("two host rules for " + r.pattern());
      }
    }
    Set<String> names = new HashSet<>();
    for (Category c : categories) {
      if (!names.add(Objects.requireNonNull(c, "a category in categories").name().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("two categories named " + c.name());
      }
    }
    return new Rules(List.copyOf(hostRules), List.copyOf(categories), true);
  }

  public List<HostRule> hostRules() {
    return hostRules;
  }

  public List<Category> categories() {
    return categories;
  }

  /** Whether there is nothing to apply. */
  public boolean isEmpty() {
    return hostRules.isEmpty() && categories.isEmpty();
  }

  /**
   * These rules without their proxies: for a front end whose user named a proxy explicitly,
   * which then applies to every host.
   */
  public Rules withoutProxies() {
    return new Rules(hostRules, categories, false);
  }

  /** The settings for {@code host} (a URL's host name or IP address). */
  public HostSettings forHost(String host) {
    Objects.requireNonNull(host, "host");
    List<HostRule> matching = new ArrayList<>();
    for (HostRule r : hostRules) {
      if (r.pattern().matches(host)) {
        matching.add(r);
      }
    }
    if (matching.isEmpty()) {
      return HostSettings.NONE;
    }
    matching.sort((a, b) -> a.pattern().compareSpecificity(b.pattern()));
    HostSettings s = new HostSettings(matching);
    return proxies ? s : s.withoutProxy();
  }

  /** The settings for the host of {@code url}; none for a URL without a host (the request will refuse it). */
  public HostSettings forUrl(String url) {
    return host(url).map(this::forHost).orElse(HostSettings.NONE);
  }

  /** The category of {@code url}, if one matches (see the class comment for which one wins). */
  public Optional<Category> categoryFor(String url) {
    Objects.requireNonNull(url, "url");
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
    String host = uri.getHost();
    Category best = null;
    HostPattern bestHost = null;
    for (Category c : categories) {
      Optional<HostPattern> byHost = host == null ? Optional.empty() : c.hostMatch(host);
      if (!c.typeMatches(uri) || !c.hosts().isEmpty() && byHost.isEmpty()) {
        continue;
      }
      HostPattern h = byHost.orElse(null);
      if (best == null || beats(c, h, best, bestHost)) {
        best = c;
        bestHost = h;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Whether {@code c} (matched by host pattern {@code h}, or null) beats the earlier {@code best}. */
  private static boolean beats(Category c, HostPattern h, Category best, HostPattern bestHost) {
    if ((h == null) != (bestHost == null)) {
      return h != null;
    }
    if (h != null) {
      int bySpecificity = h.compareSpecificity(bestHost);
      if (bySpecificity != 0) {
        return bySpecificity > 0;
      }
    }
    return !c.extensions().isEmpty() && best.extensions().isEmpty();
  }

  private static Optional<String> host(String url) {
    try {
      return Optional.ofNullable(new URI(Objects.requireNonNull(url, "url").strip()).getHost());
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return "Rules[" + hostRules.size() + " host rules, " + categories.size() + " categories]";
  }
}
