package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.core.LocalFileException;
import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * {@code aria2.addMetalink(metalink, options, position)}: the base64 of a Metalink 4 document;
 * each file it describes (or each one {@code select-file} names) becomes a download under
 * {@code dir} with the name the document gives it, checked like {@code out} (relative, inside
 * {@code dir}, links resolved). The answer is the gids, in document order, as aria2's. The URLs
 * are ordered by {@code metalink-location}, {@code metalink-preferred-protocol} and priority; the
 * file's hash, piece hashes and size go with each download. A malformed, unsafe or Metalink 3
 * document is refused whole (code 1), before anything is added.
 */
final class MetalinkMethods {
  private final Braid braid;
  private final AddOptions options;

  MetalinkMethods(Braid braid, AddOptions options) {
    this.braid = braid;
    this.options = options;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.addMetalink", p -> {
      Metalink m = parse(p.string(0));
      ObjectNode given = p.object(1);
      List<AddOptions.Added> adds = new ArrayList<>();
      Metalink.Order order = order(given);
      List<Metalink.File> files;
      try {
        files = m.files(given.has("select-file") ? AddOptions.text(given, "select-file") : null);
      } catch (IllegalArgumentException e) {
        throw RpcException.failed("select-file: " + e.getMessage());
      }
      // every file is checked before the first is added: a refused one adds nothing
      for (Metalink.File f : files) {
        adds.add(request(f, given, order));
      }
      ArrayNode gids = JsonNodeFactory.instance.arrayNode();
      try {
        for (AddOptions.Added a : adds) {
          Download download = a.paused() ? braid.submitPaused(a.request()) : braid.submit(a.request());
          gids.add(Gid.of(download.id()));
        }
      } catch (LocalFileException e) {
        throw RpcException.failed(e.getMessage());
      }
      return gids;
    });
  }

  private static Metalink parse(String base64) throws RpcException {
    byte[] doc;
    try {
      doc = Base64.getDecoder().decode(base64.replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("the Metalink is not base64: " + e.getMessage());
    }
    try {
      return Metalink.parse(doc);
    } catch (MetalinkException e) {
      throw RpcException.failed("Metalink refused: " + e.getMessage());
    }
  }

  /** One file as an addUri of its URLs, with {@code out} = its name and its hashes as options. */
  private AddOptions.Added request(Metalink.File f, ObjectNode given, Metalink.Order order) throws RpcException {
    // AddOptions checks the name against dir itself, links resolved, as it checks any out
    List<String> uris = order.sort(f.urls()).stream().map(Metalink.Url::url).toList();
    if (uris.isEmpty()) {
      throw RpcException.failed("the Metalink's file " + f.name() + " has no http or https URL"
          + " (metaurls, such as torrents, are not followed)");
    }
    ObjectNode o = given.deepCopy();
    o.put("out", f.name());
    o.remove("checksum");
    f.checksum().ifPresent(c -> o.put("checksum", c.toString()));
    f.pieceHashes().ifPresent(pieces -> o.put("braid-pieces", pieces.text()));
    if (f.size() >= 0) {
      o.put("braid-length", Long.toString(f.size()));
    }
    return options.request(uris, o);
  }

  private static Metalink.Order order(ObjectNode given) throws RpcException {
    String loc = given.has("metalink-location") ? AddOptions.text(given, "metalink-location") : "";
    String proto = given.has("metalink-preferred-protocol") ? AddOptions.text(given, "metalink-preferred-protocol") : "";
    try {
      return new Metalink.Order(Arrays.asList(loc.split(",")), proto);
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("metalink-preferred-protocol: " + e.getMessage());
    }
  }
}
