package dev.floe.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The main Java sources of flink-jobs and catalog-config, for tests that keep a rule in them. */
final class MainSources {
  static final List<Path> ROOTS =
      List.of(Path.of("src/main/java"), Path.of("../catalog-config/src/main/java"));

  private MainSources() {}

  /** Every main {@code .java} file. */
  static Stream<Path> javaFiles() {
    return ROOTS.stream().flatMap(MainSources::javaFiles);
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<Path> javaFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
