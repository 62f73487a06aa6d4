package dev.braid.core;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A document's bytes as characters, decoded strictly in the encoding its byte order mark or XML
 * declaration names. Given bytes its decoder refuses, the JDK's StAX parser prints
 * {@code [Fatal Error] ...} to standard error (its Xerces core falls back to a default error
 * handler) before it throws; given characters, it has nothing to decode and prints nothing. So the
 * parser reads the declaration only from ASCII bytes, which every encoding it could name reads.
 */
final class DocumentText {
  private DocumentText() {}

  static String of(XMLInputFactory factory, byte[] document) throws XMLStreamException, MetalinkException {
    Charset charset = byteOrderMark(document);
    if (charset == null) {
      charset = declared(factory, document);
    }
    String text;
    try {
      text = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(document)).toString();
    } catch (CharacterCodingException e) {
      throw new MetalinkException("malformed XML: the document is not " + charset.name() + " text", e);
    }
    // a UTF-8 byte order mark decodes to U+FEFF, which a character stream may not begin with
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  private static Charset byteOrderMark(byte[] d) {
    if (d.length >= 3 && (d[0] & 0xff) == 0xef && (d[1] & 0xff) == 0xbb && (d[2] & 0xff) == 0xbf) {
      return StandardCharsets.UTF_8;
    }
    boolean utf16 = d.length >= 2
        && ((d[0] & 0xff) == 0xfe && (d[1] & 0xff) == 0xff || (d[0] & 0xff) == 0xff && (d[1] & 0xff) == 0xfe);
    // Java's UTF-16 decoder reads the mark and drops it
    return utf16 ? StandardCharsets.UTF_16 : null;
  }

  /** The encoding the XML declaration names (UTF-8 without one), read from the bytes up to the first {@code >}. */
  private static Charset declared(XMLInputFactory factory, byte[] document)
      throws XMLStreamException, MetalinkException {
    int end = 0;
    while (end < document.length && document[end] != '>') {
      end++;
    }
    byte[] head = Arrays.copyOf(document, Math.min(end + 1, document.length));
    for (byte b : head) {
      if (b < 0) {
        // not ASCII, so no declaration: UTF-8, XML's own default
        return StandardCharsets.UTF_8;
      }
    }
    XMLStreamReader r = factory.createXMLStreamReader(new ByteArrayInputStream(head));
    String name;
    try {
      name = r.getEncoding();
    } finally {
      r.close();
    }
    try {
      return name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
    } catch (IllegalArgumentException e) {
      throw new MetalinkException("malformed XML: unknown encoding " + name, e);
    }
  }
}
