package dev.braid.core.internal.io;

import dev.braid.core.RemoteName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class FileNamesTest {
  @Test
  void prefersRfc5987FilenameThenPlainThenUrlPath() {
    URI uri = URI.create("http://h/dir/from-path.bin?x=1");
    assertEquals("naïve file.txt", FileNames.choose("attachment; filename=\"plain.txt\"; filename*=UTF-8''na%C3%AFve%20file.txt", uri));
    assertEquals("plain.txt", FileNames.choose("attachment; filename=\"plain.txt\"", uri));
    assertEquals("token.txt", FileNames.choose("attachment; filename=token.txt", uri));
    assertEquals("from-path.bin", FileNames.choose(null, uri));
    assertEquals("a b.bin", FileNames.choose(null, URI.create("http://h/a%20b.bin")));
    assertEquals(RemoteName.FALLBACK, FileNames.choose(null, URI.create("http://h/")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../../etc/passwd", "/etc/passwd", "..\\..\\windows\\win.ini", "..", ".", "...", ".bashrc",
      "a\u0000b", "con", "NUL.txt", "lpt1", "x/../../y", "name. ", "\u202Etxt.exe", "COM1.tar.gz"})
  void hostileNamesStayOneSafeComponent(String raw) {
    String name = RemoteName.sanitize(raw);
    Path dir = Path.of("/tmp/target-dir");
    Path resolved = dir.resolve(name).normalize();
    assertEquals(dir, resolved.getParent(), raw + " -> " + name);
    assertFalse(name.startsWith("."), name);
    assertFalse(name.contains("\u0000"), name);
    assertFalse(name.matches("(?i)(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?"), name);
    assertFalse(name.endsWith(" ") || name.endsWith("."), name);
  }

  @Test
  void traversalInContentDispositionKeepsOnlyTheLastComponent() {
    assertEquals("passwd", FileNames.choose("attachment; filename=\"../../etc/passwd\"", URI.create("http://h/x")));
    assertEquals("passwd", FileNames.choose("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd", URI.create("http://h/x")));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "attachment; filename*=UTF-8''..%2F..%2F.ssh%2Fauthorized_keys",
      "attachment; filename*=UTF-8''%2Fetc%2Fcron.d%2Fjob",
      "attachment; filename*=UTF-8''C%3A%5CWindows%5Csystem32%5Cdrivers%5Cetc%5Chosts",
      "attachment; filename*=UTF-8''.bashrc",
      "attachment; filename*=UTF-8''a%00b.txt",
      "attachment; filename*=UTF-8''%0D%0Ainjected.txt",
      "attachment; filename*=UTF-8''NUL",
      "attachment; filename*=UTF-8''com1.txt",
      "attachment; filename*=UTF-8''..",
      "attachment; filename*=UTF-8''%E2%80%AEfdp.exe",
      "attachment; filename=\"/etc/passwd\"",
      "attachment; filename=\"\\\\server\\share\\x.bin\"",
      "attachment; filename*=ISO-8859-1''..%2F%E9t%E9.txt",
      "attachment; filename*=bogus-charset''..%2Fx"})
  void rfc5987AndPlainDispositionNamesAreSanitisedToo(String header) {
    String name = FileNames.choose(header, URI.create("http://h/from-path.bin"));
    Path dir = Path.of("/tmp/target-dir");
    assertEquals(dir, dir.resolve(name).normalize().getParent(), header + " -> " + name);
    assertFalse(name.startsWith("."), name);
    assertFalse(name.chars().anyMatch(c -> c < 0x20 || c == '/' || c == '\\' || c == ':'), name);
    assertFalse(name.matches("(?i)(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?"), name);
    assertFalse(name.contains("\u202E"), name);
  }

  @Test
  void theUrlPathOfARedirectTargetIsSanitisedLikeAHeader() {
    assertEquals("passwd", FileNames.choose(null, URI.create("http://h/a/..%2F..%2Fetc%2Fpasswd")));
    assertEquals("profile", FileNames.choose(null, URI.create("http://h/%2E%2E%2F.profile")));
    assertEquals("_con", FileNames.choose(null, URI.create("http://h/dir/con")));
    assertEquals(RemoteName.FALLBACK, FileNames.choose(null, URI.create("http://h/dir/..")));
    assertEquals(RemoteName.FALLBACK, FileNames.choose(null, URI.create("http://h/%2E%2E")));
  }

  @Test
  void aVeryLongRfc5987NameIsCutToFit() {
    String header = "attachment; filename*=UTF-8''" + "%E6%97%A5".repeat(1000) + ".iso";
    String name = FileNames.choose(header, URI.create("http://h/x"));
    assertTrue(name.getBytes(StandardCharsets.UTF_8).length <= RemoteName.MAX_BYTES, name);
    assertTrue(name.endsWith(".iso"), name);
    assertTrue(name.startsWith("日"), name);
  }

  @Test
  void longNamesAreCutToFitKeepingTheExtension() {
    String name = RemoteName.sanitize("é".repeat(300) + ".tar.gz");
    assertTrue(name.getBytes(StandardCharsets.UTF_8).length <= RemoteName.MAX_BYTES, name);
    assertTrue(name.endsWith(".gz"), name);
    // a file system's 255 bytes, with the .part suffix of the running download
    assertEquals(255, RemoteName.MAX_BYTES + ".part".length());
    assertEquals(RemoteName.MAX_BYTES, RemoteName.sanitize("x".repeat(400) + ".iso").length());
  }

  @Test
  void aLongQuotedNameIsReadWithoutRecursion() {
    // the regex's alternation inside a repeat overflowed the stack on ~2,000 characters
    String quoted = "attachment; filename=\"" + "ab\\\"c".repeat(20_000) + ".iso\"";
    String name = FileNames.choose(quoted, URI.create("http://h/from-url.bin"));
    assertTrue(name.startsWith("ab_cab_c"), name);
    assertTrue(name.endsWith(".iso"), name);
  }

  @Test
  void aHeaderThatCannotBeReadGivesTheUrlsName() {
    URI uri = URI.create("http://h/from-url.bin");
    assertEquals("from-url.bin", FileNames.choose("attachment; filename=\"evil.exe", uri));
    assertEquals("from-url.bin", FileNames.choose("attachment; filename=\"a\\\"", uri));
    assertEquals("from-url.bin", FileNames.choose("attachment; filename*=UTF-8", uri));
    assertEquals("from-url.bin", FileNames.choose("attachment", uri));
    assertEquals("bare.txt", FileNames.choose("filename=bare.txt", uri));
    assertEquals("x.txt", FileNames.choose("attachment; FILENAME=\"x.txt\"", uri));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\u009bb", "a\u0085b", "a\u2028b", "a\u200eb", "a\u2066b", "a\u001bb", "a\u007fb"})
  void everyControlAndFormatCharacterIsReplaced(String raw) {
    assertEquals("a_b", RemoteName.sanitize(raw));
  }

  @Test
  void aNameThatLooksLikeAPartFileCannotCollideWithOne() {
    assertEquals("movie.part_", RemoteName.sanitize("movie.part"));
    String cut = RemoteName.sanitize("x".repeat(RemoteName.MAX_BYTES - 5) + ".part" + "y".repeat(40));
    assertTrue(cut.endsWith(".part_") && cut.length() <= RemoteName.MAX_BYTES, cut);
  }
}
