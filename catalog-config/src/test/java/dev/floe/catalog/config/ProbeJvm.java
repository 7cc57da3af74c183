package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a probe's {@code main} in a JVM of its own, as a command starts: nothing loaded before. */
public final class ProbeJvm {
  private ProbeJvm() {}

  /**
   * The lines the probe printed, SLF4J's own notices left out; it must exit 0 within two minutes.
   *
   * @param dir where its output is kept
   * @param jvmOptions options before the class path ({@code -Dkey=value})
   */
  public static List<String> run(Path dir, Class<?> probe, List<String> jvmOptions, String... args)
      throws Exception {
    Path out = Files.createTempFile(dir, "probe", ".out");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(probe.getName());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("The probe did not finish within 120 s: " + Files.readString(out));
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();
    return output.lines().filter(line -> !line.startsWith("SLF4J:")).toList();
  }
}
