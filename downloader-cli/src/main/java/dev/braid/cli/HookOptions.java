package dev.braid.cli;

import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.seconds;
import static dev.braid.cli.CommandModel.secondsText;
import static dev.braid.cli.CommandModel.set;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadHook;
import dev.braid.core.HookFailure;
import dev.braid.core.InvalidRequestException;
import dev.braid.rpc.WebhookBody;
import java.net.URI;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --on-download-complete}, {@code --on-download-error}, {@code --on-download-webhook}, {@code --hook-timeout}: of get and daemon. */
final class HookOptions {
  private final OptionSpec onComplete = option(String.class, "CMD", "when a download completes, run CMD (/bin/sh -c) with"
      + " aria2's arguments: gid, number of files (1), file path; its output goes to stderr", "--on-download-complete").build();

  private final OptionSpec onError = option(String.class, "CMD", "when a download fails, run CMD with the same arguments"
      + " (the error in $BRAID_ERROR); a failing hook is reported and changes no exit code", "--on-download-error").build();

  private final OptionSpec webhooks = repeatable("URL", "when a download completes or fails, POST its event as JSON to URL"
      + " (repeatable): event, gid, path, length, errorCode, errorMessage", "--on-download-webhook").build();

  private final OptionSpec timeout = option(double.class, "SECONDS", "stop a hook still running after SECONDS, a command"
      + " with every process it started (default: ${DEFAULT-VALUE})", "--hook-timeout")
      .defaultValue(secondsText(Braid.DEFAULT_HOOK_TIMEOUT)).build();

  /** The long names, for a help section. */
  static final String[] NAMES = {"--on-download-complete", "--on-download-error", "--on-download-webhook", "--hook-timeout"};

  void addTo(CommandSpec spec) {
    for (OptionSpec o : List.of(onComplete, onError, webhooks, timeout)) {
      spec.addOption(o);
    }
  }

  /** Whether any hook was given. */
  boolean any() {
    return onComplete.getValue() != null || onError.getValue() != null || !strings(webhooks).isEmpty();
  }

  /** Gives the hooks to {@code b}; their failures go to {@code failures}. */
  void applyTo(BraidBuilder b, Consumer<HookFailure> failures) throws InvalidRequestException {
    set(timeout, () -> b.hookTimeout(seconds(timeout)));
    String complete = onComplete.getValue();
    if (complete != null) {
      set(onComplete, () -> b.onDownloadComplete(DownloadHook.command(complete)));
    }
    String error = onError.getValue();
    if (error != null) {
      set(onError, () -> b.onDownloadError(DownloadHook.command(error)));
    }
    for (String url : strings(webhooks)) {
      URI uri;
      try {
        uri = new URI(url);
      } catch (java.net.URISyntaxException e) {
        throw new InvalidRequestException("--on-download-webhook: not a URL: " + url, e);
      }
      set(webhooks, () -> {
        DownloadHook hook = DownloadHook.webhook(uri, WebhookBody::of);
        b.onDownloadComplete(hook).onDownloadError(hook);
      });
    }
    b.hookFailures(failures);
  }
}
