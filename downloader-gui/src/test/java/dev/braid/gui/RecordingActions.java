package dev.braid.gui;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what the window asked for, for tests of the window's wiring that need no engine. */
final class RecordingActions implements QueueActions {
  final List<String> calls = new CopyOnWriteArrayList<>();
  volatile GuiSettings settings = GuiSettings.defaults();

  @Override
  public void add(AddRequest request) {
    calls.add("add " + request.entries().stream().map(AddRequest.Entry::url).toList() + (request.inOrder() ? " in order" : ""));
  }

  @Override
  public void pause(List<Long> ids) {
    calls.add("pause " + ids);
  }

  @Override
  public void resume(List<Long> ids) {
    calls.add("resume " + ids);
  }

  @Override
  public void cancel(List<Long> ids) {
    calls.add("cancel " + ids);
  }

  @Override
  public void remove(List<Long> ids, boolean deleteFiles) {
    calls.add("remove " + ids + " " + deleteFiles);
  }

  @Override
  public void changeLink(long id, String url) {
    calls.add("link " + id + " " + url);
  }

  @Override
  public void speedLimit(long bytesPerSecond) {
    calls.add("limit " + bytesPerSecond);
  }

  @Override
  public void saveSettings(GuiSettings s) {
    settings = s;
    calls.add("settings " + s.theme());
  }

  @Override
  public GuiSettings settings() {
    return settings;
  }
}
