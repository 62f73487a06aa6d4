package dev.braid.gui;

/** The five states a row can show, in the words and style classes the table uses. */
enum DownloadStatus {
  QUEUED("Queued"),
  ACTIVE("Downloading"),
  PAUSED("Paused"),
  COMPLETED("Completed"),
  FAILED("Failed");

  private final String label;

  DownloadStatus(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /** The CSS class of a cell or badge showing this status, e.g. {@code status-active}. */
  String styleClass() {
    return "status-" + name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether the download has ended and will not move without a retry. */
  boolean finished() {
    return this == COMPLETED || this == FAILED;
  }

  boolean canPause() {
    return this == QUEUED || this == ACTIVE;
  }

  boolean canResume() {
    return this == PAUSED || this == FAILED;
  }
}
