package dev.braid.cli;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link CommandRelayTest} runs as another user: connects to the relay socket given, sends an
 * honest hello for the command line given, and prints whether the daemon answered anything.
 * Arguments: SOCKET STATE_DB CWD COMMAND...
 */
public final class RelayAsAnotherUser {
  private RelayAsAnotherUser() {
  }

  /**
   * A class folder with this class and the relay's frames, which another user can read (the
   * build's folders may be the test user's alone).
   */
  static Path readableByAll() throws IOException, java.net.URISyntaxException {
    Path root = Files.createTempDirectory("braid-relay-other-user-");
    Path pkg = Files.createDirectories(root.resolve("dev/braid/cli"));
    Path classes = Path.of(RelayFrames.class.getResource("RelayFrames.class").toURI()).getParent();
    Path mine = Path.of(RelayAsAnotherUser.class.getResource("RelayAsAnotherUser.class").toURI());
    Files.copy(mine, pkg.resolve(mine.getFileName()));
    try (var frames = Files.newDirectoryStream(classes, "RelayFrames*.class")) {
      for (Path f : frames) {
        Files.copy(f, pkg.resolve(f.getFileName()));
      }
    }
    for (Path p = pkg; p.startsWith(root); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    try (var all = Files.newDirectoryStream(pkg)) {
      for (Path f : all) {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
    return root;
  }

  public static void main(String[] args) throws IOException {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(Path.of(args[0])));
      try {
        new RelayFrames.Hello(args[1], args[2], false, 0, List.of("", "", ""), Arrays.asList(args).subList(3, args.length))
            .write(new DataOutputStream(RelayFrames.output(ch)));
      } catch (IOException closedFirst) {
        // the daemon closed the connection before the hello went out: unheard either way
      }
      int first;
      try {
        first = new DataInputStream(RelayFrames.input(ch)).read();
      } catch (IOException reset) {
        // closed with the hello unread in its buffer: the kernel resets rather than ends the stream
        first = -1;
      }
      System.out.println(first < 0 ? "connected; closed unheard" : "connected; answered " + (char) first);
    }
  }
}
