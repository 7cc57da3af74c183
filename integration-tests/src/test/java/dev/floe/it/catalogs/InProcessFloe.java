package dev.floe.it.catalogs;

import dev.floe.flink.cli.FloeMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * `floe ... --config floe.yaml --home DIR` inside the test JVM, through the same entry point as
 * bin/floe (a new JVM per command would cost the catalog matrix minutes).
 */
public record InProcessFloe(Path config, Path home) {

  public record Result(int exitCode, String out, String err) {
    public String both() {
      return out + err;
    }
  }

  public Result run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString(), "--home", home.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }
}
