package dev.braid.cli;

import dev.braid.client.DownloadView;
import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadNote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code braid get --debug}'s course of one download: each change of its connection count and each
 * note of its run (a mirror left out, a server quirk worked around) on a line of its own, once, in
 * the order they happened, as the client's views bring them (a daemon's bring none). Used by the
 * command's thread only.
 */
final class DebugCourse {
  private int changesShown;
  private int notesShown;

  /** Prints what {@code v} tells that was not printed yet. */
  void print(BatchReporter line, DownloadView v) {
    List<Map.Entry<Duration, String>> lines = new ArrayList<>();
    List<ConnectionChange> changes = v.connectionChanges();
    for (ConnectionChange c : changes.subList(Math.min(changesShown, changes.size()), changes.size())) {
      lines.add(Map.entry(c.at(), c.toString()));
    }
    List<DownloadNote> notes = v.notes();
    for (DownloadNote n : notes.subList(Math.min(notesShown, notes.size()), notes.size())) {
      lines.add(Map.entry(n.at(), n.toString()));
    }
    changesShown = Math.max(changesShown, changes.size());
    notesShown = Math.max(notesShown, notes.size());
    lines.sort(Map.Entry.comparingByKey());
    for (Map.Entry<Duration, String> l : lines) {
      line.line("braid: " + l.getValue());
    }
  }
}
