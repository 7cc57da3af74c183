package dev.floe.catalog.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Renders a page in Debian's headless Chromium as a child process and reports what a reader would
 * see: the screenshot, and every message the page wrote to the console (script errors, blocked
 * loads). The process and its children are always stopped, by pid, before this returns.
 */
public final class HeadlessChromium {
  /** What a test says when Chromium is missing: it fails, it never skips. */
  public static final String INSTALL_HINT =
      "Headless Chromium is required to test the HTML report and was not found at %s: install"
          + " Debian's package with `apt-get install -y chromium` (bin/test does it when it can), or"
          + " point FLOE_CHROMIUM at a Chromium binary";

  private static final long TIMEOUT_SECONDS = 90;

  /**
   * @param exitCode Chromium's exit code
   * @param screenshot the PNG written
   * @param console the console messages the page logged (Chromium's {@code CONSOLE} log lines)
   * @param stderr everything Chromium wrote to stderr
   */
  public record Rendering(int exitCode, Path screenshot, List<String> console, String stderr) {}

  private HeadlessChromium() {}

  /** The binary: $FLOE_CHROMIUM, else /usr/bin/chromium. */
  public static Path binary() {
    String configured = System.getenv("FLOE_CHROMIUM");
    return Path.of(configured == null || configured.isBlank() ? "/usr/bin/chromium" : configured);
  }

  /** Fails (never skips) with how to install Chromium when it is missing. */
  public static Path requireBinary() {
    Path binary = binary();
    if (!Files.isExecutable(binary)) {
      throw new AssertionError(String.format(INSTALL_HINT, binary));
    }
    return binary;
  }

  /** Renders {@code page} at {@code width x height} into {@code png}. */
  public static Rendering render(Path page, Path png, int width, int height)
      throws IOException, InterruptedException {
    Path binary = requireBinary();
    Path profile = Files.createTempDirectory("floe-chromium-profile");
    Path err = Files.createTempFile("floe-chromium", ".err");
    List<String> command =
        List.of(
            binary.toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--user-data-dir=" + profile,
            "--enable-logging=stderr",
            "--v=0",
            "--screenshot=" + png.toAbsolutePath(),
            "--window-size=" + width + "," + height,
            page.toAbsolutePath().toUri().toString());
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile())
            .start();
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "Chromium (pid " + process.pid() + ") did not finish in " + TIMEOUT_SECONDS + " s");
      }
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      List<String> console = new ArrayList<>();
      for (String line : stderr.split("\n")) {
        if (line.contains(":CONSOLE")) {
          console.add(line);
        }
      }
      return new Rendering(process.exitValue(), png, console, stderr);
    } finally {
      stop(process);
      deleteTree(profile);
      Files.deleteIfExists(err);
    }
  }

  /** Stops the process and everything it started, by pid. */
  private static void stop(Process process) throws InterruptedException {
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * What is wrong with a screenshot for a page that should show content: empty when it is fine.
   * Non-blank means: at least {@code minColours} distinct colours, at least {@code minShare} of the
   * pixels differ from the background (the most common colour), and each required colour covers at
   * least {@code minPixels} pixels (within 3 per channel, for antialiasing).
   */
  public static List<String> screenshotProblems(
      Path png, int minColours, double minShare, Map<String, Integer> required, int minPixels)
      throws IOException {
    BufferedImage image = ImageIO.read(png.toFile());
    List<String> problems = new ArrayList<>();
    if (image == null) {
      problems.add("cannot decode " + png);
      return problems;
    }
    Map<Integer, Integer> histogram = new HashMap<>();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        histogram.merge(image.getRGB(x, y) & 0xffffff, 1, Integer::sum);
      }
    }
    long total = (long) image.getWidth() * image.getHeight();
    int background = histogram.values().stream().max(Integer::compare).orElse(0);
    double share = 1.0 - (double) background / total;
    if (histogram.size() < minColours) {
      problems.add("only " + histogram.size() + " distinct colours (want " + minColours + ")");
    }
    if (share < minShare) {
      problems.add(String.format("only %.4f of pixels differ from the background", share));
    }
    for (Map.Entry<String, Integer> colour : required.entrySet()) {
      int pixels = 0;
      for (Map.Entry<Integer, Integer> entry : histogram.entrySet()) {
        if (close(entry.getKey(), colour.getValue())) {
          pixels += entry.getValue();
        }
      }
      if (pixels < minPixels) {
        problems.add(
            String.format(
                "colour %s (#%06x) covers %d pixels (want %d)",
                colour.getKey(), colour.getValue(), pixels, minPixels));
      }
    }
    return problems;
  }

  private static boolean close(int a, int b) {
    for (int shift = 0; shift <= 16; shift += 8) {
      if (Math.abs(((a >> shift) & 0xff) - ((b >> shift) & 0xff)) > 3) {
        return false;
      }
    }
    return true;
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(HeadlessChromium::delete);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
