package dev.floe.flink.cli;

import dev.floe.catalog.config.AwsClientErrors;
import dev.floe.catalog.config.EnvironmentVariables;
import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.config.RestClientErrors;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.flink.log.RedactingWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The entry point of `bin/floe` and of the shaded jar under {@code flink run}. Maps Floe's
 * exceptions to exit codes scripts can trust: 0 ok (also a no-op rerun), 1 unexpected, 2 bad usage
 * or manifest, 3 a check failed, 4 commit conflict, 5 commit state unknown, 6 timed out (nothing
 * committed).
 */
public final class FloeMain {

  private FloeMain() {}

  public static void main(String[] args) {
    // stdout carries Floe's results alone (with --json, one JSON object): what else prints on
    // System.out, Flink's client under `flink run` ("Job has been submitted with JobID ..."), goes
    // to stderr.
    PrintStream stdout = System.out;
    System.setOut(System.err);
    CommandLine commandLine = FloeCommand.commandLine(args);
    int code =
        redactedExecute(
            args, new PrintWriter(stdout, true), new PrintWriter(System.err, true), commandLine);
    ClassDataArchive.dumpIfRepresentative(code, !onlyHelp(commandLine.getParseResult()));
    System.exit(code);
  }

  /**
   * Runs a command line and returns its exit code, without exiting (for tests and embedding).
   * Everything written to {@code err} goes through {@link Redaction}: no error line, warning or
   * stack trace shows a password. {@code out} carries results and is left exact.
   */
  public static int execute(String[] args, PrintWriter out, PrintWriter rawErr) {
    return redactedExecute(args, out, rawErr, FloeCommand.commandLine(args));
  }

  private static int redactedExecute(
      String[] args, PrintWriter out, PrintWriter rawErr, CommandLine commandLine) {
    Redaction.rememberEnvironment(System.getenv());
    PrintWriter err = new PrintWriter(new RedactingWriter(rawErr), true);
    try {
      return execute(args, out, err, commandLine);
    } finally {
      out.flush(); // main exits right after: nothing a command printed may stay buffered
      err.flush();
    }
  }

  /**
   * Runs {@code args} on the given command line (tests compare the whole and the one-command
   * model).
   */
  static int execute(String[] args, PrintWriter rawOut, PrintWriter err, CommandLine commandLine) {
    WriteTracker tracker = new WriteTracker(rawOut);
    PrintWriter out = new PrintWriter(tracker, true);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(
        (exception, cmd, parseResult) -> {
          int code;
          String message;
          if (exception instanceof FloeException floe) {
            code = floe.exitCode();
            message = floe.getMessage();
            err.println("floe: " + message);
          } else {
            code = ExitCodes.UNEXPECTED;
            message = describe(exception);
            err.println("floe: " + message);
            if (debug(System.getenv(EnvironmentVariables.DEBUG.key()))) {
              exception.printStackTrace(err);
            } else {
              err.println(
                  "(run with " + EnvironmentVariables.DEBUG.key() + "=1 for the stack trace)");
            }
          }
          // One JSON object on stdout either way: unless the command printed its own (a dry run's
          // plan with its refusal), the failure is that object.
          if (asksForJson(parseResult) && !tracker.wroteAnything()) {
            out.println(Json.write(failure(code, message)));
          }
          return code;
        });
    commandLine.setParameterExceptionHandler(
        (exception, params) -> {
          // One line, as every failure: the mistake, then where the command's usage is (its
          // usage text after the line was up to a hundred lines, the line itself scrolled away).
          // Picocli ends some of its messages with a period, which read badly before ours.
          String message =
              exception.getMessage().strip().replaceFirst("\\.$", "") + suggestion(exception);
          err.println("floe: " + message + " (see `" + helpCommand(exception) + "`)");
          // The command line did not parse, so only its words tell whether --json was asked for.
          if (List.of(args).contains("--json")) {
            out.println(Json.write(failure(ExitCodes.INVALID_INPUT, message)));
          }
          return ExitCodes.INVALID_INPUT;
        });
    return commandLine.execute(args);
  }

  /** FLOE_DEBUG's value turns stack traces on unless it is unset, empty, 0, false, off or no. */
  static boolean debug(String value) {
    return value != null
        && !List.of("", "0", "false", "off", "no").contains(value.strip().toLowerCase(Locale.ROOT));
  }

  /** Passes everything to stdout and remembers whether anything was written. */
  private static final class WriteTracker extends java.io.Writer {
    private final PrintWriter target;
    private boolean written;

    WriteTracker(PrintWriter target) {
      this.target = target;
    }

    boolean wroteAnything() {
      return written;
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
      written |= length > 0;
      target.write(buffer, offset, length);
    }

    @Override
    public void flush() {
      target.flush();
    }

    @Override
    public void close() {
      target.flush(); // stdout stays open: the caller owns it
    }
  }

  /** Whether the command that ran was given {@code --json}. */
  private static boolean asksForJson(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--json")) {
        return true;
      }
    }
    return false;
  }

  /**
   * What {@code --json} prints on stdout when a command fails, so that a script reading stdout gets
   * an object either way: the exit code and the error line (passwords masked, as on stderr).
   */
  static Map<String, Object> failure(int exitCode, String message) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("status", "failed");
    map.put("exit_code", exitCode);
    map.put("error", Redaction.redact(message));
    return map;
  }

  /**
   * Whether the command line asked for help or the version instead of running a command: also a
   * command named without the subcommand it needs ({@code floe late}), which prints its usage,
   * {@code floe help}, and a command line that could not be parsed (null).
   */
  private static boolean onlyHelp(CommandLine.ParseResult parsed) {
    if (parsed == null) {
      return true;
    }
    CommandLine.ParseResult last = parsed;
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
        return true;
      }
      last = p;
    }
    return !last.commandSpec().subcommands().isEmpty()
        || last.commandSpec().userObject() instanceof CommandLine.HelpCommand;
  }

  /**
   * "; did you mean backfill?" for a mistyped command or option picocli finds a close match for.
   */
  private static String suggestion(CommandLine.ParameterException exception) {
    if (exception instanceof CommandLine.UnmatchedArgumentException unmatched) {
      // Picocli lists the closest first; the others are rarely what was meant.
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        return "; did you mean " + suggestions.get(0) + "?";
      }
    }
    return "";
  }

  /** Where the usage of the command a parameter error is about is: "floe snapshots --help". */
  private static String helpCommand(CommandLine.ParameterException exception) {
    return exception.getCommandLine().getCommandSpec().qualifiedName() + " --help";
  }

  /** The error line of a failure: its message, else what it is (a bare NullPointerException). */
  static String describe(Throwable exception) {
    Optional<String> aws = AwsClientErrors.reason(exception);
    if (aws.isPresent()) {
      return aws.get();
    }
    Optional<String> rest = RestClientErrors.line(exception);
    if (rest.isPresent()) {
      return rest.get();
    }
    String message = exception.getMessage();
    return message == null ? exception.toString() : message;
  }
}
