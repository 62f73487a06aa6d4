package dev.braid.core;

/**
 * A hook that did not succeed: it failed, ran past its time bound and was stopped, or could not
 * start because too many hooks were waiting. The download it was for is not affected.
 *
 * @param event the download's end the hook was for
 * @param hook the hook, as its {@code toString} describes it (a command, a URL)
 * @param reason what went wrong, in words
 */
public record HookFailure(HookEvent event, String hook, String reason) {
  /**
   * Checks its arguments: all are required.
   *
   * @param event the download's end the hook was for
   * @param hook the hook, as its {@code toString} describes it
   * @param reason what went wrong, in words
   */
  public HookFailure {
    if (event == null || hook == null || reason == null) {
      throw new IllegalArgumentException("a hook failure needs its event, hook and reason");
    }
  }

  @Override
  public String toString() {
    return "hook " + hook + " for #" + event.id() + " (" + event.kind().name().toLowerCase(java.util.Locale.ROOT) + "): "
        + reason;
  }
}
