package dev.braid.core;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a Metalink 4 document (RFC 5854) with the JDK's StAX parser, hardened: DTD support is off
 * and a DOCTYPE is refused outright (so no entity, internal or external, is ever expanded: no
 * XXE, no entity expansion bomb), external entities are off as well, and the document size is
 * bounded by the caller. Elements of other namespaces and those Braid has no use for (identity,
 * description, signature, ...) are skipped, as RFC 5854 lets extensions add them.
 */
final class MetalinkParser {
  static final String NS4 = "urn:ietf:params:xml:ns:metalink";
  static final String NS3 = "http://www.metalinker.org/";
  /** Piece hash kinds, strongest first: the one a file is checked with when it gives several. */
  private static final List<String> PIECE_STRENGTH = List.of("sha-512", "sha-384", "sha-256", "sha-1", "md5");
  private static final String DOCTYPE_REFUSED = "a DOCTYPE is refused (no DTD or entity is read in a Metalink)";

  private final XMLStreamReader xml;
  private final List<String> notes = new ArrayList<>();

  private MetalinkParser(XMLStreamReader xml) {
    this.xml = xml;
  }

  /**
   * Parses {@code document}.
   *
   * @throws MetalinkException for malformed XML, a DOCTYPE, Metalink 3, an unsafe file name, a
   *     value out of range, or a document over {@link Metalink#MAX_BYTES}
   */
  static Metalink parse(byte[] document) throws MetalinkException {
    if (document.length > Metalink.MAX_BYTES) {
      throw new MetalinkException("the Metalink is larger than " + Metalink.MAX_BYTES + " bytes");
    }
    XMLInputFactory f = XMLInputFactory.newDefaultFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    XMLStreamReader r = null;
    try {
      String text = DocumentText.of(f, document);
      if (text.contains("<!DOCTYPE")) {
        // refused before the parser sees it: scanning a broken internal subset, the JDK's parser prints
        // a stack trace to standard error, or throws MissingResourceException (a NUL in it); a '<'
        // cannot stand in text or attributes: only a comment or CDATA with this text is refused with it
        throw new MetalinkException(DOCTYPE_REFUSED);
      }
      r = f.createXMLStreamReader(new StringReader(text));
      return new MetalinkParser(r).document();
    } catch (XMLStreamException e) {
      String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNumber();
      throw new MetalinkException("malformed XML" + where + ": " + firstLine(e.getMessage()), e);
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing is held open: the input is a string
        }
      }
    }
  }

  private Metalink document() throws XMLStreamException, MetalinkException {
    next();
    String ns = xml.getNamespaceURI();
    if (NS3.equals(ns)) {
      throw new MetalinkException("Metalink 3 (" + NS3 + ") is not read: Braid reads Metalink 4 (RFC 5854, "
          + NS4 + "); tools such as the metalink-checker convert one to the other");
    }
    if (!NS4.equals(ns) || !"metalink".equals(xml.getLocalName())) {
      throw new MetalinkException("not a Metalink 4 document: the root element is {" + (ns == null ? "" : ns) + "}"
          + xml.getLocalName() + ", not {" + NS4 + "}metalink");
    }
    List<Metalink.File> files = new ArrayList<>();
    Set<String> names = new HashSet<>();
    while (next() == XMLStreamConstants.START_ELEMENT) {
      if (ours("file")) {
        Metalink.File file = file();
        if (!names.add(file.name())) {
          throw new MetalinkException("two files are named " + file.name());
        }
        files.add(file);
      } else {
        skip();
      }
    }
    if (files.isEmpty()) {
      throw new MetalinkException("the Metalink describes no file");
    }
    return new Metalink(files, notes);
  }

  private Metalink.File file() throws XMLStreamException, MetalinkException {
    String name = MetalinkNames.clean(xml.getAttributeValue(null, "name"));
    long size = -1;
    Map<String, String> hashes = new LinkedHashMap<>();
    Map<String, PieceHashes> pieces = new LinkedHashMap<>();
    List<Metalink.Url> urls = new ArrayList<>();
    while (next() == XMLStreamConstants.START_ELEMENT) {
      if (!NS4.equals(xml.getNamespaceURI())) {
        skip();
        continue;
      }
      switch (xml.getLocalName()) {
        case "size" -> size = size(name, xml.getElementText().strip());
        case "hash" -> hash(name, hashes);
        case "pieces" -> pieces(name, pieces);
        case "url" -> url(name, urls);
        case "metaurl" -> {
          notes.add(name + ": metaurl (" + xml.getAttributeValue(null, "mediatype") + ") ignored: Braid does not follow"
              + " torrents or other metaurls");
          skip();
        }
        default -> skip();
      }
    }
    PieceHashes chosen = null;
    for (String kind : PIECE_STRENGTH) {
      if (pieces.containsKey(kind)) {
        chosen = pieces.get(kind);
        break;
      }
    }
    if (chosen != null && size >= 0 && !chosen.fits(size)) {
      throw new MetalinkException(name + ": " + chosen + " do not cover its size of " + size + " bytes");
    }
    return new Metalink.File(name, size, hashes, chosen, urls);
  }

  private static long size(String file, String text) throws MetalinkException {
    try {
      long n = Long.parseLong(text);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new MetalinkException(file + ": size '" + text + "' is not a number of bytes");
  }

  private void hash(String file, Map<String, String> hashes) throws XMLStreamException, MetalinkException {
    String type = lower(xml.getAttributeValue(null, "type"));
    String hex = xml.getElementText().strip();
    if (!Checksum.ALGORITHMS.contains(type)) {
      notes.add(file + ": hash type " + type + " ignored (Braid verifies " + String.join(", ", Checksum.ALGORITHMS) + ")");
      return;
    }
    try {
      hashes.put(type, Checksum.parse(type + "=" + hex).hex());
    } catch (InvalidRequestException e) {
      throw new MetalinkException(file + ": " + e.getMessage(), e);
    }
  }

  private void pieces(String file, Map<String, PieceHashes> pieces) throws XMLStreamException, MetalinkException {
    String type = lower(xml.getAttributeValue(null, "type"));
    String lengthText = xml.getAttributeValue(null, "length");
    List<String> hashes = new ArrayList<>();
    while (next() == XMLStreamConstants.START_ELEMENT) {
      if (ours("hash")) {
        hashes.add(xml.getElementText());
      } else {
        skip();
      }
    }
    if (!PieceHashes.ALGORITHMS.contains(type)) {
      notes.add(file + ": pieces of type " + type + " ignored (Braid checks " + String.join(", ", PieceHashes.ALGORITHMS)
          + ")");
      return;
    }
    try {
      pieces.put(type, new PieceHashes(type, Long.parseLong(lengthText == null ? "" : lengthText.strip()), hashes));
    } catch (IllegalArgumentException e) {
      throw new MetalinkException(file + ": bad pieces (length '" + lengthText + "'): " + e.getMessage(), e);
    }
  }

  private void url(String file, List<Metalink.Url> urls) throws XMLStreamException, MetalinkException {
    String priorityText = xml.getAttributeValue(null, "priority");
    String location = lower(xml.getAttributeValue(null, "location"));
    String url = xml.getElementText().strip();
    int priority = Metalink.LOWEST_PRIORITY;
    if (priorityText != null) {
      try {
        priority = Integer.parseInt(priorityText.strip());
      } catch (NumberFormatException e) {
        priority = -1;
      }
      if (priority < 1 || priority > Metalink.LOWEST_PRIORITY) {
        throw new MetalinkException(file + ": url priority '" + priorityText + "' is not 1 to " + Metalink.LOWEST_PRIORITY);
      }
    }
    Metalink.Url u = new Metalink.Url(url, priority, location);
    if (u.scheme().equals("http") || u.scheme().equals("https")) {
      urls.add(u);
    } else {
      notes.add(file + ": " + (u.scheme().isEmpty() ? "URL '" + url + "'" : u.scheme() + " URL") + " ignored (Braid"
          + " downloads http and https)");
    }
  }

  /** Whether the current start element is {@code local} of Metalink 4. */
  private boolean ours(String local) {
    return NS4.equals(xml.getNamespaceURI()) && local.equals(xml.getLocalName());
  }

  /**
   * Moves to the next start or end element, refusing what must never be processed: a DOCTYPE
   * (entities live there) and an entity reference.
   */
  private int next() throws XMLStreamException, MetalinkException {
    while (xml.hasNext()) {
      int e = xml.next();
      switch (e) {
        case XMLStreamConstants.DTD -> throw new MetalinkException(DOCTYPE_REFUSED);
        case XMLStreamConstants.ENTITY_REFERENCE -> throw new MetalinkException("an entity reference &"
            + xml.getLocalName() + "; is refused");
        case XMLStreamConstants.START_ELEMENT, XMLStreamConstants.END_ELEMENT -> {
          return e;
        }
        default -> {
          // text between elements, comments, processing instructions: nothing to use
        }
      }
    }
    return XMLStreamConstants.END_DOCUMENT;
  }

  /** Skips the current element and everything inside it. */
  private void skip() throws XMLStreamException, MetalinkException {
    int depth = 1;
    while (depth > 0) {
      int e = next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else {
        throw new MetalinkException("the document ends inside an element");
      }
    }
  }

  private static String lower(String s) {
    return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    String m = message.strip();
    int nl = m.lastIndexOf('\n');
    String last = nl >= 0 ? m.substring(nl + 1).strip() : m;
    // the JDK's parser prefixes its own text with "Message: "
    return last.startsWith("Message: ") ? last.substring("Message: ".length()) : last;
  }
}
