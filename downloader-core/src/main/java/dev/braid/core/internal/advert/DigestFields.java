package dev.braid.core.internal.advert;

import dev.braid.core.Checksum;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.greenbytes.http.sfv.ByteSequenceItem;
import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.Parser;

/**
 * Picks, among a response's digest fields, the one that describes the whole file, and says why
 * the others were not used. {@code Repr-Digest} (RFC 9530) is over the selected representation,
 * the whole file also in a 206; {@code Content-Digest} is over this message's content, so only
 * a 200 or a 206 spanning the whole file makes it the file's; RFC 3230's {@code Digest} is over
 * the instance, the whole file. Braid stores the bytes as sent, content coding and all (it asks
 * for {@code identity} and decodes nothing), which is what RFC 9530's digests cover; RFC 3230's
 * under a content coding is not used, as its implementations disagree on coded or decoded bytes.
 */
final class DigestFields {
  /** What the fields gave: the digest to check (null for none) and why any other was not used. */
  record Reading(ServerDigest digest, List<String> notes) {}

  private DigestFields() {}

  /**
   * @param headers every value of a response header by name
   * @param partOnly null when the response's content is the whole file, else which part it is
   *     (its Content-Range), for the note that a Content-Digest does not cover the file
   */
  static Reading read(Function<String, List<String>> headers, String partOnly) {
    List<String> notes = new ArrayList<>();
    ServerDigest chosen = structured("Repr-Digest", headers.apply("Repr-Digest"), notes);
    List<String> content = headers.apply("Content-Digest");
    if (!content.isEmpty()) {
      if (partOnly != null) {
        notes.add("the server's Content-Digest was not used: it covers only this response's bytes (" + partOnly
            + "), not the whole file");
      } else if (chosen == null) {
        chosen = structured("Content-Digest", content, notes);
      }
    }
    List<String> legacy = headers.apply("Digest");
    if (chosen == null && !legacy.isEmpty()) {
      String coding = codingOf(headers.apply("Content-Encoding"));
      if (coding != null) {
        notes.add("the server's Digest was not used: the response has Content-Encoding " + coding
            + ", and RFC 3230 digests of coded responses are made of coded or decoded bytes depending on the server");
      } else {
        chosen = choose("Digest", legacy(legacy, notes), notes);
      }
    }
    return new Reading(chosen, List.copyOf(notes));
  }

  /** A content coding other than identity, or null. */
  private static String codingOf(List<String> values) {
    for (String v : values) {
      for (String c : v.split(",")) {
        String coding = c.strip().toLowerCase(Locale.ROOT);
        if (!coding.isEmpty() && !coding.equals("identity")) {
          return coding;
        }
      }
    }
    return null;
  }

  /** An RFC 9530 field: a structured-field dictionary of algorithm keys to byte sequences. */
  private static ServerDigest structured(String field, List<String> lines, List<String> notes) {
    if (lines.isEmpty()) {
      return null;
    }
    Map<String, byte[]> digests = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, ListElement<?>> e : new Parser(lines).parseDictionary().get().entrySet()) {
        if (e.getValue() instanceof ByteSequenceItem b) {
          ByteBuffer bytes = b.get().duplicate();
          byte[] digest = new byte[bytes.remaining()];
          bytes.get(digest);
          digests.put(e.getKey(), digest);
        }
      }
    } catch (IllegalArgumentException e) {
      // the library's ParseException: a field that is no dictionary is not used, never fatal
      notes.add("the server's " + field + " was not used: it is not a structured-field dictionary (" + e.getMessage() + ")");
      return null;
    }
    return choose(field, digests, notes);
  }

  /** An RFC 3230 field: {@code ALGORITHM=BASE64} pairs, names in any case. */
  private static Map<String, byte[]> legacy(List<String> lines, List<String> notes) {
    Map<String, byte[]> digests = new LinkedHashMap<>();
    for (String line : lines) {
      for (String pair : line.split(",")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          continue;
        }
        String algorithm = pair.substring(0, eq).strip().toLowerCase(Locale.ROOT);
        String value = pair.substring(eq + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        try {
          digests.putIfAbsent(algorithm, Base64.getDecoder().decode(value));
        } catch (IllegalArgumentException e) {
          notes.add("the server's Digest " + algorithm + " was not used: its value is not base64");
        }
      }
    }
    return digests;
  }

  /** The first trusted digest of the right length; a note when the field has none. */
  private static ServerDigest choose(String field, Map<String, byte[]> digests, List<String> notes) {
    List<String> wrongLength = new ArrayList<>();
    for (String algorithm : ServerDigest.TRUSTED) {
      byte[] d = digests.get(algorithm);
      if (d == null) {
        continue;
      }
      if (d.length != lengthOf(algorithm)) {
        wrongLength.add(algorithm + " of " + d.length + " bytes");
        continue;
      }
      return new ServerDigest(field, new Checksum(algorithm, HexFormat.of().formatHex(d)));
    }
    if (!wrongLength.isEmpty()) {
      notes.add("the server's " + field + " was not used: " + String.join(", ", wrongLength) + " is no such digest");
    } else if (!digests.isEmpty()) {
      notes.add("the server's " + field + " was not used: " + String.join(", ", digests.keySet())
          + " not trusted (only " + String.join(" and ", ServerDigest.TRUSTED) + " are checked)");
    }
    return null;
  }

  private static int lengthOf(String algorithm) {
    return algorithm.equals("sha-256") ? 32 : 64;
  }
}
