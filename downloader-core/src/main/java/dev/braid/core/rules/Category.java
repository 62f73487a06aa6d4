package dev.braid.core.rules;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A folder for some downloads: those whose file name (the last segment of the URL's path) ends in
 * one of its extensions, those from one of its hosts, or, when it names both, those that are both.
 * Immutable; build with {@link #builder(String, Path)}.
 */
public final class Category {
  private final String name;
  private final Path folder;
  private final List<String> extensions;
  private final List<HostPattern> hosts;

  private Category(Builder b) {
    this.name = b.name;
    this.folder = b.folder;
    this.extensions = List.copyOf(b.extensions);
    this.hosts = List.copyOf(b.hosts);
  }

  /**
   * Starts a category named {@code name} whose downloads go to {@code folder} (absolute).
   *
   * @throws IllegalArgumentException for an empty name or a relative folder
   */
  public static Builder builder(String name, Path folder) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(folder, "folder");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a category needs a name");
    }
    if (!folder.isAbsolute()) {
      throw new IllegalArgumentException("the folder of category " + name + " must be absolute (or start with ~/), not "
          + folder);
    }
    return new Builder(name, folder.normalize());
  }

  public String name() {
    return name;
  }

  public Path folder() {
    return folder;
  }

  /** File name endings without the dot, lower case ({@code mp4}, {@code tar.gz}); empty for any type. */
  public List<String> extensions() {
    return extensions;
  }

  /** The hosts whose downloads this category takes; empty for any host. */
  public List<HostPattern> hosts() {
    return hosts;
  }

  /** Whether {@code uri}'s file name has one of the extensions (true when the category names none). */
  boolean typeMatches(URI uri) {
    if (extensions.isEmpty()) {
      return true;
    }
    String file = fileName(uri).toLowerCase(Locale.ROOT);
    for (String e : extensions) {
      if (file.length() > e.length() + 1 && file.endsWith("." + e)) {
        return true;
      }
    }
    return false;
  }

  /** The most specific of this category's host patterns that matches {@code host}; empty when it names no hosts. */
  Optional<HostPattern> hostMatch(String host) {
    HostPattern best = null;
    for (HostPattern p : hosts) {
      if (p.matches(host) && (best == null || p.compareSpecificity(best) > 0)) {
        best = p;
      }
    }
    return Optional.ofNullable(best);
  }

  private static String fileName(URI uri) {
    String path = uri.getPath() == null ? "" : uri.getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  @Override
  public String toString() {
    return "Category[" + name + " -> " + folder + "]";
  }

  /** Builds a {@link Category}; every setter checks its argument ({@link IllegalArgumentException}). */
  public static final class Builder {
    private final String name;
    private final Path folder;
    private final List<String> extensions = new ArrayList<>();
    private final List<HostPattern> hosts = new ArrayList<>();

    private Builder(String name, Path folder) {
      this.name = name;
      this.folder = folder;
    }

    /** Adds a file name ending, with or without its leading dot ({@code mp4}, {@code .tar.gz}). */
    public Builder extension(String extension) {
      Objects.requireNonNull(extension, "extension");
      String e = extension.strip().toLowerCase(Locale.ROOT);
      e = e.startsWith(".") ? e.substring(1) : e;
      if (e.isEmpty() || e.contains("/") || e.endsWith(".")) {
        throw new IllegalArgumentException("not a file extension: '" + extension + "'");
      }
      if (!extensions.contains(e)) {
        extensions.add(e);
      }
      return this;
    }

    /** Adds the hosts of a pattern (see {@link HostPattern#parse}). */
    public Builder host(String pattern) {
      HostPattern p = HostPattern.parse(pattern);
      if (!hosts.contains(p)) {
        hosts.add(p);
      }
      return this;
    }

    /**
     * @throws IllegalArgumentException when the category names neither an extension nor a host
     */
    public Category build() {
      if (extensions.isEmpty() && hosts.isEmpty()) {
        throw new IllegalArgumentException("category " + name + " needs extensions, hosts or both");
      }
      return new Category(this);
    }
  }
}
