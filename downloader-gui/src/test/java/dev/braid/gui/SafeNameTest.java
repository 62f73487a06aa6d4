package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SafeNameTest {
  @Test
  void anOutNameFromAListStaysInTheChosenFolder() {
    assertEquals("x.iso", AddRequests.safeName("x.iso"));
    assertEquals("passwd", AddRequests.safeName("../../etc/passwd"));
    assertEquals("evil.exe", AddRequests.safeName("..\\..\\evil.exe"));
    assertThrows(IllegalArgumentException.class, () -> AddRequests.safeName("sub/.."));
    assertThrows(IllegalArgumentException.class, () -> AddRequests.safeName("dir/"));
  }
}
