package dev.braid.cli.mcp;

/** A tool's argument the tool cannot use; its message names the argument and says what it takes. */
public final class ToolArgumentException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A refused argument.
   *
   * @param message what is wrong, naming the argument
   */
  public ToolArgumentException(String message) {
    super(message);
  }
}
