package dev.braid.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A Metalink file name (RFC 5854 section 4.1.2.1), a relative path: one whose shape could leave the
 * folder the files go into, whatever the platform, is refused; each of its parts is then cleaned
 * by {@link RemoteName#sanitize}, the sanitiser of a server's names, so that a Metalink can no more
 * make a hidden file or folder ({@code .bashrc}, {@code x/.ssh/authorized_keys}), carry a bidi
 * override or a control character, or pass a file system's name length than a server can.
 */
final class MetalinkNames {
  private MetalinkNames() {}

  static String clean(String name) throws MetalinkException {
    if (name == null || name.isBlank()) {
      throw new MetalinkException("a file without a name");
    }
    if (name.indexOf('\\') >= 0) {
      // a backslash is a separator on Windows: "..\\x" would climb there
      throw new MetalinkException("unsafe file name " + printable(name) + ": backslashes are refused");
    }
    if (name.startsWith("/") || name.matches("^[A-Za-z]:.*")) {
      throw new MetalinkException("unsafe file name " + printable(name) + ": it must be a relative path");
    }
    List<String> parts = new ArrayList<>();
    for (String part : name.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new MetalinkException("unsafe file name " + printable(name) + ": empty, . and .. path parts are refused");
      }
      parts.add(RemoteName.sanitize(part));
    }
    return String.join("/", parts);
  }

  private static String printable(String name) {
    StringBuilder b = new StringBuilder("'");
    name.codePoints().limit(200).forEach(c -> {
      if (RemoteName.unprintable(c)) {
        b.append(String.format(c < 0x100 ? "\\x%02x" : "\\u%04x", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.append('\'').toString();
  }
}
