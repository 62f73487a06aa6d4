package dev.braid.core.metalink;

import dev.braid.core.MetalinkException;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A document's bytes as characters, decoded strictly in the encoding its XML declaration or byte
 * order mark names. Given bytes its decoder refuses, the JDK's StAX parser prints
 * {@code [Fatal Error] ...} to standard error (its Xerces core falls back to a default error
 * handler) before it throws; given characters, it has nothing to decode and prints nothing.
 */
final class DocumentText {
  private DocumentText() {}

  static String of(XMLInputFactory factory, byte[] document) throws XMLStreamException, MetalinkException {
    // the parser reads the declaration (and detects a byte order mark) when it is made
    XMLStreamReader head = factory.createXMLStreamReader(new ByteArrayInputStream(document));
    String declared;
    try {
      declared = head.getEncoding();
    } finally {
      head.close();
    }
    Charset charset;
    try {
      charset = declared == null ? StandardCharsets.UTF_8 : Charset.forName(declared);
    } catch (IllegalArgumentException e) {
      throw new MetalinkException("malformed XML: unknown encoding " + declared, e);
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
}
