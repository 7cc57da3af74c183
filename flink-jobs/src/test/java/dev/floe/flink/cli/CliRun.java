package dev.floe.flink.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One in-process `floe ...` invocation: exit code, stdout and stderr. */
public record CliRun(int exitCode, String out, String err) {

  /** Runs {@code floe <args> --home <home>}. */
  public static CliRun floe(Path home, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The repository's examples/ folder (tests run in the module folder). */
  static Path examples() {
    return Path.of("..", "examples").toAbsolutePath().normalize();
  }
}
