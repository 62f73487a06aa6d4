package dev.braid.core.metalink;

import dev.braid.core.MetalinkException;

/**
 * The check of a Metalink file name (RFC 5854 section 4.1.2.1): a relative path of plain parts,
 * so that no name can leave the folder the files go into, whatever the platform.
 */
final class FileNames {
  private FileNames() {}

  static String check(String name) throws MetalinkException {
    if (name == null || name.isBlank()) {
      throw new MetalinkException("a file without a name");
    }
    if (name.indexOf('\\') >= 0 || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      // a backslash is a separator on Windows: "..\\x" would climb there
      throw new MetalinkException("unsafe file name " + printable(name) + ": backslashes and control characters are refused");
    }
    if (name.startsWith("/") || name.matches("^[A-Za-z]:.*")) {
      throw new MetalinkException("unsafe file name " + printable(name) + ": it must be a relative path");
    }
    for (String part : name.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new MetalinkException("unsafe file name " + printable(name) + ": empty, . and .. path parts are refused");
      }
    }
    return name;
  }

  private static String printable(String name) {
    StringBuilder b = new StringBuilder("'");
    name.codePoints().limit(200).forEach(c -> {
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\x%02x", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.append('\'').toString();
  }
}
