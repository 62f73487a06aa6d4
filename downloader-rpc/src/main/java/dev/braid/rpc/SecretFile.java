package dev.braid.rpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The RPC secret a daemon keeps when none is given: {@code STATE_DB.rpc-secret}, readable by its
 * user only (0600), made once with 32 random bytes and read again by later runs, so that
 * configured clients keep working across restarts. Local clients read it there.
 */
public final class SecretFile {
  private SecretFile() {}

  /** The secret file of a state database. */
  public static Path fileOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".rpc-secret");
  }

  /** The secret in {@code file}, made first if the file does not exist. */
  public static String readOrCreate(Path file) throws IOException {
    if (!Files.exists(file)) {
      Files.createDirectories(file.toAbsolutePath().getParent());
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      String secret = HexFormat.of().formatHex(random);
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, secret + "\n", StandardCharsets.US_ASCII);
        return secret;
      } catch (FileAlreadyExistsException raced) {
        // another process made it meanwhile: its secret is the one
      }
    }
    String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (secret.isEmpty()) {
      throw new IOException("the RPC secret file " + file + " is empty: delete it to have a new one made");
    }
    return secret;
  }
}
