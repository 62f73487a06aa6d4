package dev.braid.client.remote;

import dev.braid.core.Braid;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The local path that an engine's files for a state location are named after ({@link EngineLock},
 * {@link SecretFile}, the daemon's port file, each its sibling with a suffix). For a SQLite file
 * it is the file itself, as always. A server database (a URL) has no local file, and its engine
 * files belong to this machine, not to the database that many machines share: they go under the
 * user's data folder, {@code servers/} beside the default database, named by a hash of the
 * location without its password (one lock, port and secret per location, user and machine; the
 * password may change without moving them).
 */
public final class StateAnchor {
  private StateAnchor() {}

  /** The anchor of {@code location}: a file path (made absolute) or a server URL. */
  public static Path of(String location) {
    if (!Braid.isServerLocation(location)) {
      return Path.of(location).toAbsolutePath().normalize();
    }
    String shown = Braid.describeStateLocation(location);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(shown.getBytes(StandardCharsets.UTF_8));
      return Braid.defaultStateDatabase().resolveSibling("servers").resolve(HexFormat.of().formatHex(digest, 0, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
