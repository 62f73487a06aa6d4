package dev.braid.store;

import java.util.List;
import java.util.Optional;

/**
 * What downloads learned about hosts, so that the next download there starts well. Read and
 * written by download driver threads; each record is replaced whole (last writer wins: two
 * downloads of one host that end together both measured it).
 */
public interface HostKnowledge {
  /**
   * {@return what was learned about {@code host} ({@code host:port}, see
   * {@link HostMemory#host()}), if anything}
   *
   * @param host the host, as {@code host:port}
   */
  Optional<HostMemory> host(String host);

  /**
   * {@return what was learned about every host, the most recently updated first, at most
   * {@code limit} of them} For a face that shows what the engine remembers.
   *
   * @param limit the most hosts to return (positive)
   * @throws IllegalArgumentException when {@code limit} is below 1
   */
  List<HostMemory> recent(int limit);

  /**
   * Records what a download learned about a host, replacing what was known.
   *
   * @param memory what was learned, with the host it is about
   */
  void remember(HostMemory memory);

  /**
   * {@return what each HTTP version delivered from {@code host} ({@code host:port}), by protocol
   * name}
   *
   * @param host the host, as {@code host:port}
   */
  List<ProtocolMemory> protocols(String host);

  /**
   * Records what a download learned about one HTTP version of a host, replacing what was known of
   * it.
   *
   * @param memory what was learned, with the host and protocol it is about
   */
  void remember(ProtocolMemory memory);
}
