package dev.braid.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Turns a host name into addresses. Braid caches the answers (see
 * {@link BraidBuilder#dnsCacheTtl}), so an implementation is asked once per host per TTL however
 * many connections and downloads use the host. The default asks the JVM ({@link InetAddress#getAllByName}).
 */
@FunctionalInterface
public interface HostResolver {
  /** The JVM's resolver. */
  HostResolver SYSTEM = InetAddress::getAllByName;

  /**
   * Resolves {@code host}; asked at most once per host per TTL, as Braid caches the answer.
   *
   * @param host the host name, as the URL gives it
   * @return at least one address
   * @throws UnknownHostException when the name does not resolve
   */
  InetAddress[] resolve(String host) throws UnknownHostException;
}
