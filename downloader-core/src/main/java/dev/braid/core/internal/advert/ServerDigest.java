package dev.braid.core.internal.advert;

import dev.braid.core.Checksum;
import java.util.List;

/**
 * A digest of the whole file that a response head declares.
 *
 * @param field where it came from: the header ({@code Repr-Digest}, {@code Content-Digest} or
 *     {@code Digest}) or the advertised Metalink
 * @param checksum the digest, by one of {@link #TRUSTED}
 */
public record ServerDigest(String field, Checksum checksum) {
  /**
   * The algorithms whose digest a server may declare for Braid to check, in the order preferred
   * (sha-256 first: it hashes faster on CPUs with SHA extensions); md5 and sha-1, broken for
   * collisions and marked deprecated in RFC 9530's registry, are not checked.
   */
  public static final List<String> TRUSTED = List.of("sha-256", "sha-512");

  /** {@return the header and the algorithm, as a note names them: {@code Repr-Digest sha-256}} */
  public String describe() {
    return field + " " + checksum.algorithm();
  }
}
