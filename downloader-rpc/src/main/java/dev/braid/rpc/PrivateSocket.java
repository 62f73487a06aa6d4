package dev.braid.rpc;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A Unix domain socket only this user can connect to: bound in a folder only this user can enter,
 * made 0600, then moved into place, so that there is no moment when another user could connect.
 */
public final class PrivateSocket {
  private PrivateSocket() {}

  /** Binds a listening socket at {@code path}, replacing what is there. */
  public static ServerSocketChannel bind(Path path) throws IOException {
    Path folder = path.getParent();
    Files.createDirectories(folder);
    Path hidden = Files.createTempDirectory(folder, ".braid-rpc-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path bound = hidden.resolve("s");
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      server.bind(UnixDomainSocketAddress.of(bound));
      Files.setPosixFilePermissions(bound, PosixFilePermissions.fromString("rw-------"));
      Files.move(bound, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      server.close();
      Files.deleteIfExists(bound);
      throw e;
    } finally {
      Files.deleteIfExists(hidden);
    }
    return server;
  }
}
