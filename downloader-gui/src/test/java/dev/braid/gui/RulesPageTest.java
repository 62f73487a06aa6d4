package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The rules and categories page: reached from Settings, checks as it is typed, saves only a file that reads. */
@ExtendWith(ApplicationExtension.class)
class RulesPageTest {
  @TempDir Path dir;
  private final RecordingActions actions = new RecordingActions();
  private MainWindow window;
  private AppRules rules;

  @Start
  void start(Stage stage) {
    window = new MainWindow(actions, new SnapshotCoalescer(), Runnable::run, p -> actions.calls.add("open " + p));
    rules = AppRules.load(dir.resolve("config/braid/rules.toml"));
    window.rules(rules);
    stage.setScene(window.scene());
    stage.show();
  }

  @Test
  void aNewFileStartsFromTheTemplateAndOnlyAFileThatReadsIsSaved(FxRobot robot) throws Exception {
    robot.clickOn("#settings");
    robot.clickOn("#settings-rules");
    WaitForAsyncUtils.waitForFxEvents();
    TextArea text = robot.lookup("#rules-text").queryAs(TextArea.class);
    assertEquals(AppRules.TEMPLATE, text.getText());
    assertTrue(robot.lookup("#rules-file").queryAs(Label.class).getText().endsWith("rules.toml"));

    robot.interact(() -> text.setText("[hosts.\"example.com\"]\nconections = 2\n"));
    String status = robot.lookup("#rules-status").queryAs(Label.class).getText();
    assertTrue(status.endsWith(":2: hosts.\"example.com\".conections: unknown key (known here: connections, headers,"
        + " max-connections, max-connections-per-host, proxy, rate-limit, user-agent)"), status);
    assertTrue(robot.lookup("#rules-save").queryAs(Button.class).isDisabled());

    String good = "[hosts.\"example.com\"]\nconnections = 2\n\n[categories.video]\nextensions = [\"mp4\"]\nfolder = \""
        + dir.resolve("Video") + "\"\n";
    robot.interact(() -> {
      text.setText(good);
      robot.lookup("#rules-url").queryAs(TextField.class).setText("https://example.com/a.mp4");
    });
    assertEquals("OK: 1 host rules, 1 categories", robot.lookup("#rules-status").queryAs(Label.class).getText());
    String report = robot.lookup("#rules-report").queryAs(TextArea.class).getText();
    assertTrue(report.contains("connections = 2") && report.contains("category video: folder " + dir.resolve("Video")),
        report);
    robot.clickOn("#rules-save");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(good, Files.readString(dir.resolve("config/braid/rules.toml")));
    assertFalse(robot.lookup("#rules-text").tryQuery().isPresent(), "the page closed");

    // saved rules apply to the next add at once: a link of the category goes to its folder
    List<AddRequest> parts = rules.byCategory(new AddRequest(List.of(AddRequest.Entry.of("https://x.org/a.mp4"),
        AddRequest.Entry.of("https://x.org/b.iso")), actions.settings().folder()), actions.settings().folder());
    assertEquals(List.of(dir.resolve("Video"), actions.settings().folder()), parts.stream().map(AddRequest::folder).toList());
    // a folder the person chose wins
    assertEquals(1, rules.byCategory(new AddRequest(List.of(AddRequest.Entry.of("https://x.org/a.mp4")), dir),
        actions.settings().folder()).size());
  }
}
