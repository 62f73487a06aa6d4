package dev.braid.rpc;

import dev.braid.client.remote.SecretFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A daemon's API keys, beside its secret file: {@code STATE_DB.rpc-keys}, its user's alone (0600,
 * refused otherwise as the secret file is), one line per key: name, scope, creation, last use,
 * SHA-256 of the key (the key itself is shown once, by {@link #add}, and kept nowhere). A file, not
 * the state database, so that {@code braid keys} works with or without a daemon and on a server
 * database too; the running daemon sees each change at its next call ({@link CurrentKeys}).
 *
 * <p>Every change (a command's, the daemon's record of a use) reads, changes and replaces the
 * whole file under a lock on {@code STATE_DB.rpc-keys.lock}, so none is lost; a reader sees the
 * old file or the new one, never a part (the new one is moved over the old).
 */
public final class KeyFile {
  /** How precisely the last use of a key is recorded: a dashboard polling each second rewrites the file once a minute. */
  public static final Duration USE_GRANULARITY = Duration.ofMinutes(1);
  private static final String HEADER = "# braid API keys (braid keys add | list | revoke): name, scope, created, last used,"
      + " SHA-256 of the key; tab-separated";
  private static final String NEVER = "-";
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_FOLDER =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final String WHAT = "the RPC keys file";

  private final Path file;
  private final Clock clock;

  /** The keys in {@code file}; times of creation and use from {@code clock}. */
  public KeyFile(Path file, Clock clock) {
    if (file == null || clock == null) {
      throw new IllegalArgumentException("a keys file needs its path and a clock");
    }
    this.file = file.toAbsolutePath().normalize();
    this.clock = clock;
  }

  /** The keys file of a state database's anchor (as {@link SecretFile#fileOf}). */
  public static Path fileOf(Path stateAnchor) {
    return stateAnchor.resolveSibling(stateAnchor.getFileName() + ".rpc-keys");
  }

  /** Where the keys are. */
  public Path path() {
    return file;
  }

  /**
   * The keys, oldest first; none when the file does not exist.
   *
   * @throws IOException when it cannot be read, others may read or change it, or a line is not a key
   */
  public List<ApiKey> list() throws IOException {
    List<String> lines;
    try {
      SecretFile.checkPrivate(file, WHAT);
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    List<ApiKey> keys = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.isBlank() && !line.startsWith("#")) {
        keys.add(parse(line, i + 1));
      }
    }
    return List.copyOf(keys);
  }

  private ApiKey parse(String line, int number) throws IOException {
    String[] f = line.split("\t", -1);
    try {
      if (f.length != 5) {
        throw new IllegalArgumentException("it has " + f.length + " fields, not 5");
      }
      Optional<Instant> used = f[3].equals(NEVER) ? Optional.empty() : Optional.of(Instant.parse(f[3]));
      return new ApiKey(f[0], Scope.of(f[1]), Instant.parse(f[2]), used, f[4]);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new IOException("line " + number + " of " + WHAT + " " + file + " is not a key (" + e.getMessage()
          + "): fix it, or delete the file (and every key with it)", e);
    }
  }

  /**
   * A key just made: what the file keeps of it, and its text, which nothing keeps.
   *
   * @param kept the key as the file keeps it
   * @param text what a call presents ({@code token:TEXT}): shown to its owner once
   */
  public record Made(ApiKey kept, String text) {}

  /**
   * Makes a key of {@code scope} named {@code name} (or the first free {@code key-N} when null).
   *
   * @throws IllegalArgumentException when the name is not a key's name or another key has it
   */
  public Made add(String name, Scope scope) throws IOException {
    if (scope == null) {
      throw new IllegalArgumentException("a key needs a scope");
    }
    if (name != null) {
      ApiKey.checkName(name);
    }
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String key = HexFormat.of().formatHex(random);
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    ApiKey[] made = new ApiKey[1];
    change(keys -> {
      String chosen = name != null ? name : freeName(keys);
      if (keys.stream().anyMatch(k -> k.name().equals(chosen))) {
        throw new IllegalArgumentException("a key named " + chosen + " exists already (braid keys revoke " + chosen
            + " first, or choose another --name)");
      }
      List<ApiKey> more = new ArrayList<>(keys);
      made[0] = new ApiKey(chosen, scope, now, Optional.empty(), sha256(key));
      more.add(made[0]);
      return more;
    });
    return new Made(made[0], key);
  }

  private static String freeName(List<ApiKey> keys) {
    for (int n = 1; ; n++) {
      String name = "key-" + n;
      if (keys.stream().noneMatch(k -> k.name().equals(name))) {
        return name;
      }
    }
  }

  /** Deletes the key named {@code name}; whether there was one. The running daemon refuses it from its next call on. */
  public boolean revoke(String name) throws IOException {
    boolean[] found = new boolean[1];
    change(keys -> {
      List<ApiKey> rest = new ArrayList<>(keys);
      found[0] = rest.removeIf(k -> k.name().equals(name));
      return rest;
    });
    return found[0];
  }

  /**
   * Records that a call carried {@code key} now, unless its recorded last use is within
   * {@link #USE_GRANULARITY} already (then nothing is written).
   */
  void recordUse(ApiKey key) throws IOException {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    if (!stale(key, now)) {
      return;
    }
    change(keys -> keys.stream().map(k -> k.name().equals(key.name()) && k.sha256().equals(key.sha256()) && stale(k, now)
        ? k.usedAt(now) : k).toList());
  }

  /** Whether {@code key}'s recorded last use is older than {@link #USE_GRANULARITY} at {@code now}, or missing. */
  static boolean stale(ApiKey key, Instant now) {
    return key.lastUsed().map(at -> at.plus(USE_GRANULARITY).isBefore(now)).orElse(true);
  }

  /** The SHA-256 of a key's text, in lower-case hex: what the file keeps. */
  static String sha256(String key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Reads, changes and replaces the keys under the file lock (and this JVM's: a file lock is per process). */
  private void change(UnaryOperator<List<ApiKey>> how) throws IOException {
    Files.createDirectories(file.getParent(), PRIVATE_FOLDER);
    Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
    synchronized (KeyFile.class) {
      try (FileChannel ch = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), PRIVATE);
          FileLock held = ch.lock()) {
        List<ApiKey> changed = how.apply(list());
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (ApiKey k : changed) {
          text.append(k.name()).append('\t').append(k.scope().text()).append('\t').append(k.created()).append('\t')
              .append(k.lastUsed().map(Instant::toString).orElse(NEVER)).append('\t').append(k.sha256()).append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PRIVATE);
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }
}
