package dev.braid.client;

import java.nio.file.Path;

/**
 * Where an add may make the engine write, checked before anything is recorded: a face's own
 * engine writes wherever the person chose ({@link #ANYWHERE}); a daemon only in its folders.
 */
@FunctionalInterface
public interface FolderGuard {
  /** No limit: the in-process engine writes where the face says. */
  FolderGuard ANYWHERE = folder -> { };

  /**
   * Refuses a folder the engine may not write into.
   *
   * @param folder the folder a download's file goes into
   * @throws ClientException INVALID when it is not allowed
   */
  void check(Path folder) throws ClientException;
}
