package dev.floe.it;

import dev.floe.it.servers.ServerPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs `bin/floe` as a separate process, the way a user or a scheduler does. */
public final class BinFloe {
  private static final long TIMEOUT_SECONDS = 300;

  public record Result(int exitCode, String out, String err) {}

  private BinFloe() {}

  public static Path repoRoot() {
    return ServerPaths.repoRoot();
  }

  /** Runs {@code bin/floe args} in {@code workDir}, with no FLOE_HOME (so ./.floe is used). */
  public static Result run(Path workDir, String... args) throws IOException, InterruptedException {
    return run(workDir, Map.of(), args);
  }

  /** Runs {@code bin/floe args} with extra environment variables (secrets, as a scheduler sets). */
  public static Result run(Path workDir, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(repoRoot().resolve("bin/floe").toString());
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "out", ".txt");
    Path err = Files.createTempFile(workDir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("FLOE_HOME");
    // The jar under test is the one this Maven build just packaged; never rebuild from here.
    builder.environment().put("FLOE_SKIP_BUILD", "1");
    // Each build is a new jar, so a class-data archive would be dumped (a slower first start) and
    // seldom used again; BinFloeStartupITCase turns it back on where it is what is tested.
    builder.environment().put("FLOE_CDS", "0");
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "bin/floe " + args[0] + " did not finish in " + TIMEOUT_SECONDS + " s");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
