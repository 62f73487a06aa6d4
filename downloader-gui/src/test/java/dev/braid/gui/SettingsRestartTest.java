package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import javafx.stage.Stage;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Settings go into the store and come back in a new window over a new Braid. */
@ExtendWith(ApplicationExtension.class)
class SettingsRestartTest extends LiveWindowHarness {
  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void settingsSurviveARestart(FxRobot robot) throws Exception {
    robot.press(KeyCode.CONTROL, KeyCode.COMMA).release(KeyCode.COMMA, KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
    robot.interact(() -> {
      robot.lookup("#settings-folder").queryAs(TextField.class).setText(dir.resolve("elsewhere").toString());
      robot.lookup("#settings-max-active").<Spinner<Integer>>query().getValueFactory().setValue(7);
      robot.lookup("#settings-per-download").<Spinner<Integer>>query().getValueFactory().setValue(5);
      robot.lookup("#settings-speed-limit").queryAs(TextField.class).setText("2M");
      robot.lookup("#settings-theme").<ChoiceBox<Theme>>query().setValue(Theme.DARK);
      robot.lookup("#settings-rpc-port").<Spinner<Integer>>query().getValueFactory().setValue(16900);
      robot.lookup("#settings-run-windows").queryAs(TextField.class).setText("Mon-Fri 01:00-07:00");
      robot.lookup("#settings-speed-schedule").queryAs(TextField.class).setText("Mon-Fry 09:00-18:00=1M");
    });
    // a schedule that does not parse keeps OK off and says why
    assertTrue(robot.lookup("#settings-ok").queryButton().isDisabled());
    robot.interact(() -> {
      robot.lookup("#settings-speed-schedule").queryAs(TextField.class).setText("09:00-18:00=1M");
      robot.lookup("#settings-on-complete").queryAs(TextField.class).setText("/usr/bin/true");
    });
    assertTrue(robot.lookup("#settings-rpc").queryAs(CheckBox.class).isSelected(), "on by default");
    assertEquals("Accept downloads from browser extensions (aria2 RPC on 127.0.0.1:16900), applies at next start",
        robot.lookup("#settings-rpc").queryAs(CheckBox.class).getText());
    robot.clickOn("#settings-rpc");
    robot.clickOn("#settings-ok");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(Theme.DARK, window.theme(), "applied at once");

    robot.interact(window::stop);
    queue.close();
    openWindow();
    WaitForAsyncUtils.waitForFxEvents();

    GuiSettings s = queue.settings();
    assertEquals(dir.resolve("elsewhere"), s.folder());
    assertEquals(7, s.maxActive());
    assertEquals(5, s.connectionsPerDownload());
    assertEquals(2 << 20, s.speedLimit());
    assertEquals(Theme.DARK, window.theme());
    assertEquals(false, s.rpc());
    assertEquals(16900, s.rpcPort());
    // the schedule is the new engine's own: the queue's settings take it from the client's global options
    assertEquals(new AutomationSettings("Mon-Fri 01:00-07:00", "09:00-18:00=1M", "/usr/bin/true", "", ""), s.automation());
    assertTrue(window.scene().getStylesheets().get(0).endsWith("dark.css"));
    assertEquals("2M", robot.lookup("#speed-limit").queryAs(ComboBox.class).getValue());
  }
}
