package dev.braid.cli;

import dev.braid.testserver.Content;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** Metalink 4 documents for tests, with the real hashes of test content. */
final class MetalinkDocs {
  private MetalinkDocs() {}

  /** One {@code <file>}: name, size, sha-256, sha-256 pieces of {@code pieceLength}, and its URLs (priority in order). */
  static String file(String name, Content c, int pieceLength, List<String> urls) throws Exception {
    StringBuilder b = new StringBuilder("  <file name=\"" + name + "\">\n    <size>" + c.size() + "</size>\n");
    b.append("    <hash type=\"sha-256\">").append(c.sha256Hex()).append("</hash>\n");
    b.append("    <pieces length=\"").append(pieceLength).append("\" type=\"sha-256\">\n");
    byte[] all = new byte[(int) c.size()];
    c.read(0, all, 0, all.length);
    for (int at = 0; at < all.length; at += pieceLength) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(all, at, Math.min(pieceLength, all.length - at));
      b.append("      <hash>").append(HexFormat.of().formatHex(md.digest())).append("</hash>\n");
    }
    b.append("    </pieces>\n");
    for (int i = 0; i < urls.size(); i++) {
      b.append("    <url priority=\"").append(i + 1).append("\">").append(urls.get(i)).append("</url>\n");
    }
    return b.append("  </file>\n").toString();
  }

  static String doc(String... files) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + String.join("", files) + "</metalink>\n";
  }
}
