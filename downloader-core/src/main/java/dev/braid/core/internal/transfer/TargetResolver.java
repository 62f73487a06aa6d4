package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.FailureDetail;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.io.FileNames;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.DownloadRecord;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Names the final file of a download: the request's exact file, else the one a resumed record
 * chose, else a name from the server's answer in the request's folder; and makes sure its folder
 * is there and writable before anything is written.
 */
final class TargetResolver {
  private TargetResolver() {}

  static Path resolve(DownloadRequest request, Optional<DownloadRecord> prior, ProbeResult probe, URI finalUri)
      throws LocalFileException {
    Path target = request.file().or(() -> prior.map(DownloadRecord::target)).orElseGet(() -> request.directory()
        .resolve(FileNames.choose(probe.contentDisposition(), finalUri)));
    if (request.file().isEmpty()) {
      // a folder to download into is made if missing, as wget -P and aria2c -d do; the
      // folder of an exact file name (-o) is not: a typo there should not grow a tree
      makeFolder(target.getParent());
    }
    checkFolder(target.getParent());
    return target;
  }

  private static void makeFolder(Path dir) throws LocalFileException {
    if (Files.isDirectory(dir)) {
      // the usual case, one stat: createDirectories would try mkdir and throw and catch EEXIST
      return;
    }
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      // a file stands where the folder should be: checkFolder says so
    } catch (IOException e) {
      throw new LocalFileException("cannot create the folder " + dir + ": " + e.getMessage(), e, FailureDetail.FOLDER);
    }
  }

  private static void checkFolder(Path dir) throws LocalFileException {
    if (!Files.isDirectory(dir)) {
      throw new LocalFileException(Files.exists(dir) ? dir + " is not a folder" : "the folder " + dir + " does not exist");
    }
    if (!Files.isWritable(dir)) {
      throw new LocalFileException("the folder " + dir + " is not writable");
    }
  }
}
