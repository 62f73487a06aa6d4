package dev.braid.client.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret file is refused as ssh refuses a key others may read, or another user's (real files, real modes and owners). */
class SecretFileTest {
  @TempDir Path dir;

  @Test
  void aNewSecretFileAndItsNewFolderAreTheUsersOnly() throws Exception {
    Path file = SecretFile.fileOf(dir.resolve("new/state.db"));
    String made = SecretFile.readOrCreate(file);
    assertEquals(64, made.length());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("new"))));
    assertEquals(made, SecretFile.read(file), "read again by later runs");
  }

  @Test
  void aFileOthersMayReadIsRefusedWithTheCommandThatFixesIt() throws Exception {
    Path file = dir.resolve("state.db.rpc-secret");
    Files.writeString(file, "123\n");
    for (String mode : new String[] {"rw-r--r--", "rw--w----", "rw----r--"}) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      SecretFile.InsecureException e = assertThrows(SecretFile.InsecureException.class, () -> SecretFile.readOrCreate(file));
      assertTrue(e.getMessage().endsWith("chmod 600 " + file), e.getMessage());
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertEquals("123", SecretFile.read(file), "once fixed, it is read");
  }

  @Test
  void aFileAnotherUserOwnsIsRefused() throws Exception {
    UserPrincipal nobody;
    try {
      nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    } catch (java.io.IOException e) {
      nobody = null;
    }
    assumeTrue(nobody != null && "root".equals(System.getProperty("user.name")), "giving a file away takes root");
    Path file = dir.resolve("state.db.rpc-secret");
    Files.writeString(file, "a-secret-someone-else-chose\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.setOwner(file, nobody);
    SecretFile.InsecureException e = assertThrows(SecretFile.InsecureException.class, () -> SecretFile.read(file));
    assertTrue(e.getMessage().contains("belongs to nobody") && e.getMessage().endsWith("rm " + file), e.getMessage());
  }
}
