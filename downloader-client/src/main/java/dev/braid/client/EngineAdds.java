package dev.braid.client;

import dev.braid.client.ClientException.Reason;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import dev.braid.core.StateStoreException;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * An add as the engine's side does it, for {@link LocalClient} and for the daemon's
 * {@code braid.add}: the host rules under each request ({@link RuleDefaults}), every request
 * checked and every folder made before the first is recorded, then all recorded in one
 * transaction of the state database ({@link Braid#submitAll}). A Metalink's document is fetched
 * by the engine ({@link Braid#fetchMetalink}) or parsed from the face's bytes, and its files are
 * added the same way.
 */
public final class EngineAdds {
  private final Braid braid;
  private final RuleDefaults rules;
  private final FolderGuard folders;

  /**
   * Adds to {@code braid}'s queue under {@code rules}, into the folders {@code folders} allows.
   *
   * @param braid the engine
   * @param rules the host rules and categories to apply ({@link Rules#NONE} for none)
   * @param folders where the adds may write ({@link FolderGuard#ANYWHERE} in a face's own engine)
   */
  public EngineAdds(Braid braid, Rules rules, FolderGuard folders) {
    if (braid == null || folders == null) {
      throw new IllegalArgumentException("adds need an engine and a folder guard");
    }
    this.braid = braid;
    this.rules = new RuleDefaults(rules);
    this.folders = folders;
  }

  /**
   * Adds {@code requests} all or none.
   *
   * @param requests the downloads, in order
   * @param paused true to add them paused
   * @return their ids, in order
   * @throws ClientException INVALID for a request the rules make invalid or a folder the guard refuses, FAILED when a folder
   *     cannot be made or the store cannot record them
   */
  public List<Long> add(List<DownloadRequest> requests, boolean paused) throws ClientException {
    return add(requests, paused, false);
  }

  /**
   * {@code filesInChosenFolder}: the exact files' folders are made too (a Metalink's files, named
   * inside the folder the person chose), not only the requests' own folders.
   */
  private List<Long> add(List<DownloadRequest> requests, boolean paused, boolean filesInChosenFolder) throws ClientException {
    List<DownloadRequest> ruled = new ArrayList<>();
    for (DownloadRequest r : requests) {
      try {
        ruled.add(rules.apply(r));
      } catch (InvalidRequestException e) {
        throw new ClientException(Reason.INVALID, r.uri() + ": " + e.getMessage(), e);
      }
    }
    for (DownloadRequest r : ruled) {
      Optional<Path> folder = folderOf(r);
      if (folder.isPresent()) {
        folders.check(folder.get());
      }
    }
    for (DownloadRequest r : ruled) {
      // the person chose this folder (-d, dir=): make it rather than fail the download for its
      // absence; not an exact file's folder other than the request's own (-o's path: a typo there
      // should not grow a tree), nor where a file stands: the engine refuses those when it starts
      Optional<Path> folder = r.file().isPresent() && !filesInChosenFolder
          && !r.file().get().toAbsolutePath().getParent().equals(r.directory().toAbsolutePath()) ? Optional.empty() : folderOf(r);
      try {
        if (folder.isPresent() && !Files.exists(folder.get())) {
          Files.createDirectories(folder.get());
        }
      } catch (IOException e) {
        throw new ClientException(Reason.FAILED, "cannot make the folder " + folder.get() + ": " + e.getMessage(), e);
      }
    }
    try {
      List<Long> ids = new ArrayList<>();
      for (Download d : braid.submitAll(ruled, paused)) {
        refuseHeldElsewhere(d);
        ids.add(d.id());
      }
      return ids;
    } catch (LocalFileException | StateStoreException e) {
      throw new ClientException(Reason.FAILED, e.getMessage(), e);
    }
  }

  /**
   * A request whose download another live process runs (the same file): the engine answers it at
   * once with a handle that failed ({@code LocalFileException}, the file in use), and its id is
   * that other process's download, which a face must not follow as its own.
   */
  private static void refuseHeldElsewhere(Download d) throws ClientException {
    if (d.result().isCompletedExceptionally() && d.state() == DownloadState.ACTIVE) {
      try {
        d.result().join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof LocalFileException held) {
          throw new ClientException(Reason.FAILED, held.getMessage(), held);
        }
      }
    }
  }

  /** The folder a request names (its file's, else its own), or empty for the engine's download folder. */
  private static Optional<Path> folderOf(DownloadRequest r) {
    if (r.file().isPresent()) {
      return Optional.of(r.file().get().toAbsolutePath().getParent());
    }
    return r.directoryGiven() ? Optional.of(r.directory()) : Optional.empty();
  }

  /**
   * Adds the files of a Metalink, all or none.
   *
   * @param metalink the document's URL or bytes, the folder, the selection
   * @param paused true to add them paused
   * @return their ids, in the document's order
   * @throws ClientException INVALID when the document cannot be fetched, is no Metalink or the
   *     selection names no file of it; as {@link #add} otherwise
   */
  public List<Long> addMetalink(MetalinkAdd metalink, boolean paused) throws ClientException {
    Metalink document = document(metalink);
    List<Metalink.File> files = document.files();
    List<DownloadRequest> requests = new ArrayList<>();
    for (int i : metalink.selection()) {
      if (i < 1 || i > files.size()) {
        throw new ClientException(Reason.INVALID, "the Metalink has " + files.size() + " files: there is no file " + i, null);
      }
    }
    for (int i = 0; i < files.size(); i++) {
      if (metalink.selection().isEmpty() || metalink.selection().contains(i + 1)) {
        try {
          requests.add(files.get(i).request(metalink.folder(), Metalink.Order.DOCUMENT).build());
        } catch (InvalidRequestException | MetalinkException e) {
          throw new ClientException(Reason.INVALID, "the Metalink's file " + files.get(i).name() + ": " + e.getMessage(), e);
        }
      }
    }
    return add(requests, paused, true);
  }

  private Metalink document(MetalinkAdd metalink) throws ClientException {
    try {
      if (metalink.document() != null) {
        return Metalink.parse(metalink.document());
      }
      return braid.fetchMetalink(DownloadRequest.builder(metalink.url().toString()).build());
    } catch (DownloadException e) {
      String from = metalink.url() != null ? metalink.url().toString() : "the document";
      throw new ClientException(Reason.INVALID, "cannot add the Metalink " + from + ": " + e.getMessage(), e);
    }
  }
}
