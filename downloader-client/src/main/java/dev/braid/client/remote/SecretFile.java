package dev.braid.client.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * The RPC secret a daemon keeps when none is given: {@code STATE_DB.rpc-secret}, readable by its
 * user only (0600), made once with 32 random bytes and read again by later runs, so that
 * configured clients keep working across restarts. Local clients read it there.
 *
 * <p>A file that another user may read or write, or that another user owns, is refused, by the
 * daemon and by its clients alike, as ssh refuses such a key: its secret may be known to others,
 * and one put there by another user lets that user in.
 */
public final class SecretFile {
  /** A secret shorter than this is easy to guess, even at the RPC's ten wrong guesses a second. */
  public static final int STRONG_LENGTH = 16;
  /** How a missing folder of the state database is made here: its owner's only, as the store makes it. */
  static final FileAttribute<Set<PosixFilePermission>> PRIVATE_FOLDER =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private SecretFile() {}

  /** A secret file that is not its user's alone; the message says which command fixes it. */
  public static final class InsecureException extends IOException {
    private static final long serialVersionUID = 1L;

    InsecureException(String message) {
      super(message);
    }
  }

  /** The secret file of a state database. */
  public static Path fileOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".rpc-secret");
  }

  /** The secret in {@code file}, made first if the file does not exist. */
  public static String readOrCreate(Path file) throws IOException {
    if (!Files.exists(file)) {
      Files.createDirectories(file.toAbsolutePath().getParent(), PRIVATE_FOLDER);
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
    return read(file);
  }

  /**
   * The secret in the existing {@code file}.
   *
   * @throws InsecureException when others may read or write it, or another user owns it
   * @throws IOException when it cannot be read or is empty
   */
  public static String read(Path file) throws IOException {
    checkPrivate(file, "the RPC secret file");
    String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (secret.isEmpty()) {
      throw new IOException("the RPC secret file " + file + " is empty: delete it to have a new one made");
    }
    return secret;
  }

  /**
   * Refuses {@code file} (named {@code what} in the message, e.g. "the RPC keys file") when others
   * may read or write it, or another user owns it: what guards the daemon must be its user's alone.
   *
   * @throws InsecureException naming the command that fixes it
   */
  public static void checkPrivate(Path file, String what) throws IOException {
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      // no POSIX modes on this file system (Windows): its folder's access rules guard it
      return;
    }
    UserPrincipal owner = Files.getOwner(file);
    UserPrincipal me = currentUser(file);
    if (me != null && !owner.equals(me)) {
      throw new InsecureException(what + " " + file + " belongs to " + owner.getName() + ", not to "
          + me.getName() + ": refused, as its owner chose what it holds; delete it to have a new one made: rm " + file);
    }
    if (!Collections.disjoint(mode, OTHERS)) {
      throw new InsecureException(what + " " + file + " can be read or changed by other users (mode "
          + PosixFilePermissions.toString(mode) + "): refused; make it yours only with: chmod 600 " + file);
    }
  }

  /** This process's user, or null when the system cannot say (a user.name without an account: a container's). */
  private static UserPrincipal currentUser(Path file) {
    try {
      return file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }
}
