package dev.braid.core.internal.advert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What a response head advertises, read from header lines as a server sends them. */
class AdvertisedTest {
  private static final URI BASE = URI.create("https://example.org/dl/file.iso");
  private static final byte[] SHA256 = digest("SHA-256");
  private static final byte[] SHA512 = digest("SHA-512");

  private static byte[] digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm).digest("the file".getBytes(StandardCharsets.US_ASCII));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String b64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  /** A head of {@code name, value} pairs; a name may repeat. */
  private static Advertised read(String partOnly, String... nameValues) {
    Map<String, List<String>> head = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      head.computeIfAbsent(nameValues[i].toLowerCase(), k -> new ArrayList<>()).add(nameValues[i + 1]);
    }
    return Advertised.read(name -> head.getOrDefault(name.toLowerCase(), List.of()), BASE, partOnly);
  }

  private static String digestOf(Advertised a) {
    return a.digest().map(d -> d.describe() + "=" + d.checksum().hex()).orElse("none");
  }

  @Test
  void reprDigestIsTheWholeFilesEvenOnA206AndSha256IsPreferred() {
    Advertised a = read("bytes 0-99/1000", "Repr-Digest", "sha-512=:" + b64(SHA512) + ":, sha-256=:" + b64(SHA256) + ":");
    assertEquals("Repr-Digest sha-256=" + HexFormat.of().formatHex(SHA256), digestOf(a));
  }

  @Test
  void contentDigestOfAPartIsNotTheFilesAndIsNoted() {
    Advertised a = read("bytes 0-99/1000", "Content-Digest", "sha-256=:" + b64(SHA256) + ":");
    assertEquals(Optional.empty(), a.digest());
    assertTrue(a.notes().get(0).contains("Content-Digest was not used") && a.notes().get(0).contains("bytes 0-99/1000"),
        a.notes().toString());
    Advertised whole = read(null, "Content-Digest", "sha-256=:" + b64(SHA256) + ":");
    assertEquals("Content-Digest sha-256=" + HexFormat.of().formatHex(SHA256), digestOf(whole));
  }

  @Test
  void rfc3230DigestIsReadInAnyCaseButNotUnderAContentCoding() {
    assertEquals("Digest sha-512=" + HexFormat.of().formatHex(SHA512),
        digestOf(read(null, "Digest", "MD5=AAAAAAAAAAAAAAAAAAAAAA==, SHA-512=" + b64(SHA512))));
    Advertised coded = read(null, "Digest", "SHA-256=" + b64(SHA256), "Content-Encoding", "gzip");
    assertEquals(Optional.empty(), coded.digest());
    assertTrue(coded.notes().get(0).contains("Content-Encoding gzip"), coded.notes().toString());
    // RFC 9530's fields cover the coded bytes, which is what Braid stores
    assertEquals("Repr-Digest sha-256=" + HexFormat.of().formatHex(SHA256),
        digestOf(read(null, "Repr-Digest", "sha-256=:" + b64(SHA256) + ":", "Content-Encoding", "gzip")));
  }

  @Test
  void untrustedMalformedAndMisSizedDigestsAreNotUsedAndSaySo() {
    Advertised md5 = read(null, "Repr-Digest", "md5=:AAAAAAAAAAAAAAAAAAAAAA==:, sha=:" + b64(new byte[20]) + ":");
    assertEquals(Optional.empty(), md5.digest());
    assertTrue(md5.notes().get(0).contains("md5, sha not trusted"), md5.notes().toString());
    Advertised broken = read(null, "Repr-Digest", "sha-256=not base64 in colons");
    assertEquals(Optional.empty(), broken.digest());
    assertTrue(broken.notes().get(0).contains("not a structured-field dictionary"), broken.notes().toString());
    Advertised shortOne = read(null, "Repr-Digest", "sha-256=:" + b64(new byte[31]) + ":");
    assertEquals(Optional.empty(), shortOne.digest());
    assertTrue(shortOne.notes().get(0).contains("sha-256 of 31 bytes"), shortOne.notes().toString());
  }

  @Test
  void aReprDigestWinsOverTheOthers() {
    Advertised a = read(null, "Digest", "SHA-256=" + b64(new byte[32]), "Content-Digest", "sha-256=:" + b64(new byte[32]) + ":",
        "Repr-Digest", "sha-256=:" + b64(SHA256) + ":");
    assertEquals("Repr-Digest sha-256=" + HexFormat.of().formatHex(SHA256), digestOf(a));
  }

  @Test
  void duplicatesAreSortedByPriAcrossLinesAndRelativeOnesResolved() {
    Advertised a = read(null,
        "Link", "<http://m2.example.net/file.iso>; rel=duplicate; pri=2; geo=de, </mirror/file.iso>; rel=\"duplicate\"; pri=1",
        "Link", "<https://m3.example.com/file.iso>; rel=\"duplicate DUPLICATE\"",
        "Link", "<https://example.org/dl/file.meta4>; rel=describedby; type=\"application/metalink4+xml\"",
        "Link", "<https://example.org/dl/file.asc>; rel=describedby; type=\"application/pgp-signature\"",
        "Link", "<https://example.org/next>; rel=next");
    assertEquals(List.of(URI.create("https://example.org/mirror/file.iso"), URI.create("http://m2.example.net/file.iso"),
        URI.create("https://m3.example.com/file.iso")), a.duplicates());
    assertEquals(List.of(URI.create("https://example.org/dl/file.meta4")), a.metalinks());
  }

  @Test
  void otherSchemesTheResponseItselfAndMoreThanEightAreLeftOut() {
    String many = IntStream.range(0, 12).mapToObj(i -> "<https://m" + i + ".example.net/f>; rel=duplicate")
        .reduce((x, y) -> x + ", " + y).orElseThrow();
    Advertised a = read(null, "Link", "<ftp://old.example.net/file.iso>; rel=duplicate", "Link", "<" + BASE + ">; rel=duplicate",
        "Link", many);
    assertEquals(Advertised.MAX_MIRRORS, a.duplicates().size());
    assertTrue(a.duplicates().stream().allMatch(u -> u.getHost().endsWith(".example.net") && u.getScheme().equals("https")),
        a.duplicates().toString());
    assertTrue(a.notes().stream().anyMatch(n -> n.contains("ftp://old.example.net/file.iso was ignored")), a.notes().toString());
    assertTrue(a.notes().stream().anyMatch(n -> n.contains("4 more advertised mirrors")), a.notes().toString());
  }

  @Test
  void aMalformedLinkKeepsTheLinksBeforeIt() {
    Advertised a = read(null, "Link", "<https://m1.example.net/f>; rel=duplicate, garbage; rel=duplicate");
    assertEquals(List.of(URI.create("https://m1.example.net/f")), a.duplicates());
    assertTrue(a.notes().stream().anyMatch(n -> n.contains("not of the form")), a.notes().toString());
  }
}
