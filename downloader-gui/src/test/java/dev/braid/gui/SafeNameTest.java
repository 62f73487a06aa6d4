package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SafeNameTest {
  @Test
  void anOutNameFromAListStaysInTheChosenFolder() {
    assertEquals("x.iso", BraidQueue.safeName("x.iso"));
    assertEquals("passwd", BraidQueue.safeName("../../etc/passwd"));
    assertEquals("evil.exe", BraidQueue.safeName("..\\..\\evil.exe"));
    assertThrows(IllegalArgumentException.class, () -> BraidQueue.safeName("sub/.."));
    assertThrows(IllegalArgumentException.class, () -> BraidQueue.safeName("dir/"));
  }
}
