package dev.braid.store;

import java.util.List;
import java.util.Optional;

/**
 * What downloads learned about hosts, so that the next download there starts well. Read and
 * written by download driver threads; each record is replaced whole (last writer wins: two
 * downloads of one host that end together both measured it).
 */
public interface HostKnowledge {
  /** What was learned about {@code host} ({@code host:port}, see {@link HostMemory#host()}), if anything. */
  Optional<HostMemory> host(String host);

  /** Records what a download learned about a host, replacing what was known. */
  void remember(HostMemory memory);

  /** What each HTTP version delivered from {@code host} ({@code host:port}), by protocol name. */
  List<ProtocolMemory> protocols(String host);

  /** Records what a download learned about one HTTP version of a host, replacing what was known of it. */
  void remember(ProtocolMemory memory);
}
