package dev.floe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Times one {@code bin/floe run} process for one slice: what a script that starts the command once
 * per slice pays for every slice (a JVM start, class loading and a cold JIT on top of the
 * in-process run). The process runs the jar this build made ({@code FLOE_SKIP_BUILD=1}), against a
 * catalog the harness staged; its result is verified like every other run.
 */
final class CliRunTimer {
  private static final long TIMEOUT_MINUTES = 10;

  private CliRunTimer() {}

  /**
   * The repository root: {@code -Dfloe.bench.root} (run.sh sets it), else the working directory.
   */
  static Path repoRoot() {
    String root = System.getProperty("floe.bench.root");
    return Path.of(root != null ? root : "").toAbsolutePath().normalize();
  }

  /**
   * The class-data archives of {@code bin/floe run} under {@code root} (name and modification time;
   * {@code bin/floe} publishes each as {@code run-<key>-<size>.jsa} by renaming a temporary file):
   * a process that adds or replaces one paid for writing it, which bin/floe does once per build of
   * the jar. Other commands' archives are left out, so a neighbouring command that writes its own
   * does not count.
   */
  static Set<String> archives(Path root) throws IOException {
    Path dir = root.resolve("flink-jobs/target/cds");
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      Set<String> found = new TreeSet<>();
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.startsWith("run-") && name.endsWith(".jsa")) {
          found.add(name + " " + Files.getLastModifiedTime(file)); // full precision
        }
      }
      return found;
    }
  }

  /**
   * Whether {@code after} holds an archive that {@code before} does not: one was written (a deleted
   * archive alone is not a write).
   */
  static boolean wroteArchive(Set<String> before, Set<String> after) {
    return !before.containsAll(after);
  }

  /** Why {@code bin/floe} cannot run from {@code root} without building, or null when it can. */
  static String missing(Path root) {
    Path target = root.resolve("flink-jobs/target");
    if (!Files.isExecutable(root.resolve("bin/floe"))) {
      return "no executable bin/floe under " + root;
    }
    for (String file :
        List.of(
            "provided-classpath.txt", "driver-classpath.txt", "classes/dev/floe/jvm-flags.txt")) {
      if (!Files.exists(target.resolve(file))) {
        return "no " + target.resolve(file) + " (build with run.sh, not BENCH_SKIP_BUILD=1)";
      }
    }
    try (Stream<Path> files = Files.list(target)) {
      if (files.noneMatch(p -> p.getFileName().toString().endsWith("-shaded.jar"))) {
        return "no shaded Floe jar in " + target;
      }
    } catch (IOException e) {
      return "cannot list " + target + ": " + e.getMessage();
    }
    return null;
  }

  /**
   * Runs {@code bin/floe run MANIFEST --slice DAY} against the embedded catalog in {@code home} and
   * waits for it.
   *
   * @return the process's wall and CPU time (GC time unknown: NaN)
   * @throws IllegalStateException when it fails or outlives the timeout
   */
  static Sample run(Path root, Path home, String manifest, String slice, int parallelism)
      throws IOException, InterruptedException {
    Path jobs = Files.createDirectories(home.resolve("jobs"));
    Path manifestFile = Files.writeString(jobs.resolve("bench_backfill.yaml"), manifest);
    Path log = home.resolve("floe-run.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                root.resolve("bin/floe").toString(),
                "run",
                manifestFile.toString(),
                "--slice",
                slice,
                "--parallelism",
                String.valueOf(parallelism),
                "--home",
                home.toString())
            // In home, so no floe.yaml of the working directory changes the catalog.
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("FLOE_SKIP_BUILD", "1"); // the jar run.sh just built; a rebuild would be timed
    env.keySet().removeIf(key -> key.startsWith("FLOE_CATALOG_") || key.equals("FLOE_HOME"));
    HostLoad.Mark mark = HostLoad.mark();
    long start = System.nanoTime();
    Process process = builder.start();
    boolean ended = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    double wall = (System.nanoTime() - start) / 1e9;
    // Reaped by now, so HostLoad counts the process's CPU as this JVM's own, not a neighbour's.
    double others = mark.otherCores();
    double cpu = HostLoad.ownCpuSeconds() - mark.ownCpuSeconds();
    if (!ended) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "Cannot time bin/floe run: still running after " + TIMEOUT_MINUTES + " min; see " + log);
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "Cannot time bin/floe run: exit code " + process.exitValue() + "; output:\n" + tail(log));
    }
    return new Sample(wall, cpu, Double.NaN, others);
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
  }
}
