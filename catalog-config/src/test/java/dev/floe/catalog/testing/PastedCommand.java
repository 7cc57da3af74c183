package dev.floe.catalog.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command Floe printed for the user to copy, pasted into {@code /bin/sh}: the words the shell
 * hands the command, so a test sees a table or path come back whole, not split or expanded.
 */
public final class PastedCommand {
  private PastedCommand() {}

  /**
   * Returns the words {@code /bin/sh} makes of {@code commandLine} (for {@code floe untag s.t 'q4
   * close'}: {@code floe}, {@code untag}, {@code s.t}, {@code q4 close}), run in a new empty folder
   * that must still be empty afterwards: a word that ran or wrote anything fails.
   *
   * @throws IllegalStateException when the shell fails, or left a file behind
   */
  public static List<String> words(String commandLine) {
    return output("set -- " + commandLine + "\nprintf '%s\\n' \"$@\"").lines().toList();
  }

  /**
   * Returns what {@code /bin/sh -c script} prints, run in a new empty folder that must still be
   * empty afterwards.
   *
   * @throws IllegalStateException when the shell fails, or left a file behind
   */
  public static String output(String script) {
    try {
      Path dir = Files.createTempDirectory("floe-pasted");
      try {
        Process process =
            new ProcessBuilder("/bin/sh", "-c", script)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
          in.transferTo(out);
        }
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
          throw new IllegalStateException("/bin/sh failed on " + script + ": " + out);
        }
        try (var left = Files.list(dir)) {
          List<String> made = left.map(Path::toString).toList();
          if (!made.isEmpty()) {
            throw new IllegalStateException(script + " made files " + made);
          }
        }
        return out.toString(StandardCharsets.UTF_8);
      } finally {
        dir.toFile().delete(); // empty unless a word wrote there: then it is reported above
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
