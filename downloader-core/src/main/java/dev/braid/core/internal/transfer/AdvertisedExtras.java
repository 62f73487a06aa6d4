package dev.braid.core.internal.transfer;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.IntegrityException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.Metalink;
import dev.braid.core.PieceHashes;
import dev.braid.core.internal.advert.Advertised;
import dev.braid.core.internal.advert.ServerDigest;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.metalink.MetalinkFetch;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.RemoteIdentity;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What a pass takes from what its probe's server advertised ({@link Advertised}), on the driver
 * thread before the mirrors are checked: the whole-file digest, unless the request has a checksum
 * (the user's wins); the duplicates and a describing Metalink's URLs as mirrors after the
 * request's own, at most {@value Advertised#MAX_MIRRORS}, checked by {@link MirrorSet} as any
 * mirror; the Metalink's piece hashes unless the request has its own. Nothing advertised can fail
 * the download: what cannot be used is noted and left out. Each pass reads it again from its
 * own probe, so a resume checks what the server says of the file it resumes.
 */
final class AdvertisedExtras {
  /**
   * The pass as the advertisement extends it.
   *
   * @param request the request with the server's digest and piece hashes where it had none
   * @param mirrors the URLs to check as mirrors: the request's after the one that answered, then the advertised
   * @param digest the server's digest the pass checks, or null when it checks the request's own or none
   */
  record Pass(DownloadRequest request, List<URI> mirrors, ServerDigest digest) {
    /**
     * Checks the part file against the pass's checksum, the request's or the server's, before the
     * rename ({@link PartCommit#verify}); {@code notes} hears that a server's matched.
     */
    /** What the pass's checksum is, for a mismatch's message: the request's "checksum", or the server's digest. */
    String what() {
      return digest == null ? "checksum" : "digest (the server's " + digest.field() + ")";
    }

    void verify(PartCommit commit, RemoteIdentity identity, Consumer<String> notes)
        throws LocalFileException, IntegrityException {
      if (request.checksum().isEmpty()) {
        return;
      }
      commit.verify(request.checksum().get(), what(), identity, request.minSplitSize());
      if (digest != null) {
        notes.accept("the file matches the server's " + digest.describe());
      }
    }
  }

  private final Requester http;
  private final OriginHeaders headers;
  private final PhaseRecorder recorder;
  private final Consumer<String> notes;

  /** @param headers the user's headers for the request's origin, sent with a Metalink from there */
  AdvertisedExtras(Requester http, OriginHeaders headers, PhaseRecorder recorder, Consumer<String> notes) {
    this.http = http;
    this.headers = headers;
    this.recorder = recorder;
    this.notes = notes;
  }

  /**
   * @param otherUrls the request's URLs after the one that answered the probe
   * @param name the name of the file the download is (its target's, a stream's server name), which picks a Metalink's
   *     file among several
   */
  Pass apply(DownloadRequest request, ProbeResult probe, List<URI> otherUrls, String name) {
    Advertised ad = probe.advertised();
    ad.notes().forEach(notes);
    RemoteIdentity identity = probe.identity();
    Metalink.File described = ad.metalinks().isEmpty() ? null : described(ad.metalinks().get(0), identity, name);
    Optional<ServerDigest> digest = ad.digest().or(() -> Optional.ofNullable(described).flatMap(AdvertisedExtras::wholeHash));
    DownloadRequestBuilder b = null;
    ServerDigest checked = null;
    if (digest.isPresent() && request.checksum().isPresent()) {
      notes.accept("the server's " + digest.get().describe() + " was not used: the request's checksum wins");
    } else if (digest.isPresent()) {
      b = request.toBuilder().checksum(digest.get().checksum());
      checked = digest.get();
    }
    if (described != null && described.pieces() != null && request.pieceHashes().isEmpty()) {
      PieceHashes pieces = described.pieces();
      if (pieces.fits(identity.length())) {
        b = (b == null ? request.toBuilder() : b).pieceHashes(pieces);
        notes.accept("piece hashes from the advertised Metalink: " + pieces);
      } else {
        notes.accept("the advertised Metalink's " + pieces + " do not cover " + identity.length() + " bytes: not used");
      }
    }
    return new Pass(b == null ? request : build(b), mirrors(otherUrls, ad, described, identity), checked);
  }

  private static DownloadRequest build(DownloadRequestBuilder b) {
    try {
      return b.build();
    } catch (InvalidRequestException e) {
      // a valid request with a checksum, or pieces that fit the length it must have, stays valid
      throw new IllegalStateException("a request with the server's digest became invalid", e);
    }
  }

  /** The request's remaining URLs, then the advertised ones not among them, at most {@value Advertised#MAX_MIRRORS} of those. */
  private List<URI> mirrors(List<URI> otherUrls, Advertised ad, Metalink.File described, RemoteIdentity identity) {
    Set<URI> all = new LinkedHashSet<>(otherUrls);
    List<URI> offered = new ArrayList<>(ad.duplicates());
    if (described != null) {
      for (Metalink.Url u : Metalink.Order.DOCUMENT.sort(described.urls())) {
        try {
          offered.add(URI.create(u.url()));
        } catch (IllegalArgumentException e) {
          notes.accept("the advertised Metalink's URL " + u.url() + " was ignored: not a URI");
        }
      }
    }
    URI self = URI.create(identity.finalUrl());
    List<URI> added = new ArrayList<>();
    for (URI u : offered) {
      if (added.size() == Advertised.MAX_MIRRORS) {
        notes.accept("advertised mirrors beyond " + Advertised.MAX_MIRRORS + " were ignored");
        break;
      }
      if (Advertised.webScheme(u) && !u.equals(self) && all.add(u)) {
        added.add(u);
      }
    }
    if (!added.isEmpty()) {
      notes.accept("mirrors advertised by the server, to be checked: " + added);
    }
    return List.copyOf(all);
  }

  /**
   * The file of the advertised Metalink that the download is: the only one, or the one of the
   * served length and {@code name}; null (noted) when there is none or it cannot be fetched.
   */
  private Metalink.File described(URI uri, RemoteIdentity identity, String name) {
    Metalink doc;
    try {
      doc = MetalinkFetch.fetch(http, uri, headers, recorder);
    } catch (DownloadException e) {
      // a MetalinkException for a document that is none, a status or network error for one that cannot be had
      notes.accept("the advertised Metalink " + uri + " was not used: " + e.getMessage());
      return null;
    }
    List<Metalink.File> files = doc.files().stream()
        .filter(f -> f.size() < 0 || identity.length() < 0 || f.size() == identity.length()).toList();
    List<Metalink.File> named = files.stream().filter(f -> Path.of(f.name()).getFileName().toString().equals(name)).toList();
    Metalink.File f = files.size() == 1 ? files.get(0) : named.size() == 1 ? named.get(0) : null;
    if (f == null) {
      notes.accept("the advertised Metalink " + uri + " was not used: none of its " + doc.files().size()
          + " files is this one of " + identity.length() + " bytes named " + name);
    }
    return f;
  }

  /** The Metalink's whole-file digest by a trusted algorithm, if it gives one. */
  private static Optional<ServerDigest> wholeHash(Metalink.File f) {
    for (String algorithm : ServerDigest.TRUSTED) {
      String hex = f.hashes().get(algorithm);
      if (hex != null) {
        return Optional.of(new ServerDigest("Metalink", new Checksum(algorithm, hex)));
      }
    }
    return Optional.empty();
  }
}
