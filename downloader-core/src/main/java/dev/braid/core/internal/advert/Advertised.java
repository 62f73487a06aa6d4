package dev.braid.core.internal.advert;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What one response head advertises about its file: a whole-file digest, duplicates (RFC 6249
 * {@code rel=duplicate}, by {@code pri}, the lowest first; {@code geo} is not used: the download
 * measures each mirror's throughput instead) and Metalinks that describe it ({@code rel=describedby;
 * type="application/metalink4+xml"}). Only http and https links are kept, at most
 * {@value #MAX_MIRRORS} duplicates and {@value #MAX_METALINKS} Metalink; what is left out is in
 * {@link #notes()}.
 *
 * @param digest the digest that describes the whole file, if one is trusted
 * @param duplicates other URLs of the same file, best first
 * @param metalinks Metalink documents describing the file
 * @param notes what was not used, and why, in words
 */
public record Advertised(Optional<ServerDigest> digest, List<URI> duplicates, List<URI> metalinks, List<String> notes) {
  /** Advertised mirrors a download uses at most, a Metalink's included. */
  public static final int MAX_MIRRORS = 8;
  /** Metalinks fetched at most: one describes the file. */
  static final int MAX_METALINKS = 1;
  /** The media type of a Metalink (RFC 5854). */
  static final String METALINK = "application/metalink4+xml";
  /** Nothing advertised. */
  public static final Advertised NONE = new Advertised(Optional.empty(), List.of(), List.of(), List.of());

  /** Copies the lists. */
  public Advertised {
    duplicates = List.copyOf(duplicates);
    metalinks = List.copyOf(metalinks);
    notes = List.copyOf(notes);
  }

  /**
   * Reads a response head.
   *
   * @param headers every value of a header by name
   * @param base the response's URL, against which a relative link resolves
   * @param partOnly null when the response's content is the whole file, else which part it is
   */
  public static Advertised read(Function<String, List<String>> headers, URI base, String partOnly) {
    DigestFields.Reading digest = DigestFields.read(headers, partOnly);
    List<String> notes = new ArrayList<>(digest.notes());
    List<String> values = headers.apply("Link");
    List<LinkHeader.Link> links = values.isEmpty() ? List.of() : LinkHeader.parse(values, base, notes);
    Set<URI> duplicates = new LinkedHashSet<>();
    Set<URI> metalinks = new LinkedHashSet<>();
    List<LinkHeader.Link> sorted = links.stream().sorted(Comparator.comparingInt(LinkHeader.Link::priority)).toList();
    int extra = 0;
    for (LinkHeader.Link l : sorted) {
      boolean duplicate = l.rels().contains("duplicate");
      boolean metalink = l.rels().contains("describedby") && l.type().equals(METALINK);
      if (!duplicate && !metalink) {
        continue;
      }
      if (!webScheme(l.target())) {
        notes.add("the advertised " + (duplicate ? "mirror " : "Metalink ") + l.target() + " was ignored: only http and https are used");
        continue;
      }
      if (duplicate && !l.target().equals(base)) {
        if (duplicates.size() < MAX_MIRRORS) {
          duplicates.add(l.target());
        } else if (!duplicates.contains(l.target())) {
          extra++;
        }
      }
      if (metalink && metalinks.size() < MAX_METALINKS) {
        metalinks.add(l.target());
      }
    }
    if (extra > 0) {
      notes.add(extra + " more advertised mirrors were ignored (at most " + MAX_MIRRORS + " are used)");
    }
    return new Advertised(Optional.ofNullable(digest.digest()), List.copyOf(duplicates), List.copyOf(metalinks), notes);
  }

  /** Whether {@code uri} is an absolute http or https URL with a host. */
  public static boolean webScheme(URI uri) {
    String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    return (s.equals("http") || s.equals("https")) && uri.getHost() != null;
  }
}
