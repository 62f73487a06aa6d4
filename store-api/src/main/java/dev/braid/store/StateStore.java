package dev.braid.store;

import java.util.Map;

/**
 * Everything the engine keeps between runs: the queue, the resume records of downloads, what it
 * learned about hosts, the per-host connection grants and an application's settings. One is open
 * per {@code Braid}; several processes (and, for a server database, several machines) may share
 * the data behind it.
 *
 * <p>Concurrency: an implementation is thread-safe. The engine calls it from the caller threads
 * of its public API (submit, pause, remove...), from the queue's own loop thread (starting
 * entries, heartbeats, the change feed), from each download's driver thread (resume records,
 * host memory, the end of a run) and from connection worker threads (connection grants). Every
 * method is atomic on its own and durable when it returns: it commits in one transaction, or
 * throws {@link StoreException} having changed nothing. No call spans several; where the engine
 * needs more than one thing at once, one method does it (a claim and start, a run's end, a look
 * at the change feed).
 *
 * <p>A store's {@code toString()} and every message it produces name it by
 * {@link #location()}: never with a password.
 */
public interface StateStore extends AutoCloseable {
  /** {@return the download queue} */
  QueueStore queue();

  /** {@return the resume records: each download's remote identity, segments and block sums} */
  ResumeRecords records();

  /** {@return what downloads learned about hosts (connection limits, speeds, HTTP versions)} */
  HostKnowledge hosts();

  /** {@return connection grants per host, shared by every process using this store} */
  HostGrants grants();

  /** {@return every stored setting (of the desktop app, say), by key} */
  Map<String, String> settings();

  /**
   * Stores a setting, replacing its earlier value; a null value removes it.
   *
   * @param key the setting's name
   * @param value its new value, or null to remove it
   */
  void saveSetting(String key, String value);

  /**
   * {@return where the data lives, fit for messages and logs: a file's path, or a server URL
   * without its password (see {@link StoreLocation#redact})}
   */
  String location();

  /** Releases the connection(s); the data stays. Further calls fail. */
  @Override
  void close();
}
