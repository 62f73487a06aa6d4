package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GuiSettingsTest {
  @Test
  void roundTripsThroughTheStoredStrings() {
    GuiSettings s = new GuiSettings(Path.of("/data/dl"), 5, 8, 32, 4 << 20, Theme.DARK, false, 16800, true,
        new AutomationSettings("Sat+Sun 00:00-24:00", "09:00-18:00=2M", "notify-send done", "", "http://127.0.0.1:9/hook"));
    assertEquals(s, GuiSettings.from(s.toMap()));
  }

  @Test
  void aMissingOrDamagedValueFallsBackToItsDefault() {
    Map<String, String> stored = new HashMap<>();
    stored.put(GuiSettings.MAX_ACTIVE, "many");
    stored.put(GuiSettings.SPEED_LIMIT, "-3");
    stored.put(GuiSettings.THEME, "DARK");
    stored.put(GuiSettings.RPC_PORT, "70000");
    GuiSettings s = GuiSettings.from(stored);
    GuiSettings d = GuiSettings.defaults();
    assertEquals(d.maxActive(), s.maxActive());
    assertEquals(d.speedLimit(), s.speedLimit());
    assertEquals(d.folder(), s.folder());
    assertEquals(Theme.DARK, s.theme());
    assertEquals(d.rpcPort(), s.rpcPort());
    assertEquals(true, s.rpc());
    assertEquals(false, d.clipboard(), "clipboard capture is opt-in");
  }
}
