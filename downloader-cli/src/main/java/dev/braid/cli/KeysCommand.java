package dev.braid.cli;

import dev.braid.client.remote.StateAnchor;
import dev.braid.rpc.ApiKey;
import dev.braid.rpc.KeyFile;
import dev.braid.rpc.Scope;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code braid keys add | list | revoke}: the API keys a daemon accepts besides its secret
 * ({@link KeyFile}, beside the state database): a read-only key for a dashboard, a full one for
 * a tool. A running daemon sees every change at its next call; no daemon needs to run.
 */
final class KeysCommand implements Callable<Integer> {
  private final CommandSpec spec = CommandModel.command("keys", this,
      "Make, list and revoke API keys: what an aria2 client or the web console may give instead of the daemon's secret.",
      "A key is presented as the secret is (token:KEY); a read-only one reads the queue and hears its notifications,"
          + " and is refused every call that changes something (JSON-RPC error -32003).");

  CommandSpec spec() {
    spec.addSubcommand("add", new Add().spec());
    spec.addSubcommand("list", new ListKeys().spec());
    spec.addSubcommand("revoke", new Revoke().spec());
    footer(spec);
    return spec;
  }

  private static void footer(CommandSpec spec) {
    spec.usageMessage().footerHeading("%nExit codes:%n").footer(
        "  0   done",
        "  2   usage: a bad name, a name taken, no key of that name",
        "  6   the keys file cannot be read or written, or others may change it");
  }

  /** Without add, list or revoke there is nothing to do: show how to use it. */
  @Override
  public Integer call() {
    spec.commandLine().usage(TerminalStream.raw(System.err));
    return ExitCode.USAGE;
  }

  private static KeyFile keysOf(OptionSpec stateDb) {
    return new KeyFile(KeyFile.fileOf(StateAnchor.of(QueueArguments.stateLocation(stateDb))), Clock.systemUTC());
  }

  /** The failure of a keys command as its exit code and one line. */
  private static int failed(Exception e) {
    System.err.println("braid: " + e.getMessage());
    return e instanceof IllegalArgumentException ? ExitCode.USAGE : ExitCode.LOCAL_IO;
  }

  /** {@code braid keys add [--read-only] [--name NAME]}: prints the new key, once. */
  private static final class Add implements Callable<Integer> {
    private final OptionSpec stateDb = QueueArguments.stateDb();
    private final OptionSpec readOnly = CommandModel.flag(
        "a key that reads the queue and changes nothing (for a dashboard); default: a full one", "--read-only").build();
    private final OptionSpec name = CommandModel.option(String.class, "NAME",
        "what to call it: letters, digits, '.', '_', '-' (default: key-1, key-2, ...)", "--name").build();

    CommandSpec spec() {
      CommandSpec s = CommandModel.command("add", this, "Make an API key and print it: the only time it is shown.");
      s.addOption(readOnly).addOption(name).addOption(stateDb);
      footer(s);
      return s;
    }

    @Override
    public Integer call() {
      Scope scope = CommandModel.isSet(readOnly) ? Scope.READ_ONLY : Scope.FULL;
      KeyFile keys = keysOf(stateDb);
      try {
        KeyFile.Made key = keys.add(name.getValue(), scope);
        System.out.println(key.text());
        String made = key.kept().name();
        System.err.println("braid: made the " + scope.text() + " key " + made + " in " + keys.path() + "; it is shown"
            + " this once: give it where a client asks for the secret (braid keys revoke " + made + " ends it)");
        return ExitCode.OK;
      } catch (IOException | IllegalArgumentException e) {
        return failed(e);
      }
    }
  }

  /** {@code braid keys list}: names, scopes, creation and last use; never a key. */
  private static final class ListKeys implements Callable<Integer> {
    private final OptionSpec stateDb = QueueArguments.stateDb();

    CommandSpec spec() {
      CommandSpec s = CommandModel.command("list", this,
          "List the API keys: name, scope, when made, when last used (to the minute); never the keys themselves.");
      s.addOption(stateDb);
      footer(s);
      return s;
    }

    @Override
    public Integer call() {
      KeyFile keys = keysOf(stateDb);
      try {
        List<ApiKey> all = keys.list();
        if (all.isEmpty()) {
          System.err.println("braid: no API keys in " + keys.path() + " (braid keys add makes one)");
          return ExitCode.OK;
        }
        PrintStream out = System.out;
        String row = "%-24s %-9s %-20s %s%n";
        out.printf(row, "NAME", "SCOPE", "CREATED", "LAST USED");
        for (ApiKey k : all) {
          out.printf(row, k.name(), k.scope().text(), k.created(), k.lastUsed().map(Instant::toString).orElse("never"));
        }
        return ExitCode.OK;
      } catch (IOException e) {
        return failed(e);
      }
    }
  }

  /** {@code braid keys revoke NAME}: the daemon refuses the key from its next call on. */
  private static final class Revoke implements Callable<Integer> {
    private final OptionSpec stateDb = QueueArguments.stateDb();
    private final PositionalParamSpec name = PositionalParamSpec.builder().paramLabel("NAME").arity("1")
        .type(String.class).description("the key's name (braid keys list)").build();

    CommandSpec spec() {
      CommandSpec s = CommandModel.command("revoke", this,
          "Revoke an API key: a running daemon refuses it from its next call on, and stops its notifications.");
      s.addOption(stateDb).addPositional(name);
      footer(s);
      return s;
    }

    @Override
    public Integer call() {
      KeyFile keys = keysOf(stateDb);
      String named = name.getValue();
      try {
        if (!keys.revoke(named)) {
          throw new IllegalArgumentException("no key named " + named + " in " + keys.path() + " (braid keys list shows them)");
        }
        System.err.println("braid: revoked the key " + named);
        return ExitCode.OK;
      } catch (IOException | IllegalArgumentException e) {
        return failed(e);
      }
    }
  }
}
