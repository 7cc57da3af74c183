package dev.floe.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Floe's commits take their overwrite and row delta from {@code CommitUpdates}, which writes the
 * manifest of the new files on the committing thread, so that a new overwrite or row delta cannot
 * fall back to Iceberg's polled worker pool by accident. The one exception is {@code Publish},
 * whose updates belong to a transaction that only Iceberg can create them in. (Compaction's
 * rewrites stay Iceberg's: its rewrite class cannot be extended.)
 */
class CommitUpdatesCallersTest {
  private static final List<Path> SOURCES =
      List.of(Path.of("src/main/java"), Path.of("../catalog-config/src/main/java"));

  @Test
  void onlyCommitUpdatesAndPublishsTransactionsCreateOverwritesAndRowDeltas() {
    assertThat(SOURCES).allMatch(Files::isDirectory);
    assertThat(filesCalling(".newOverwrite()", ".newRowDelta()", "::newOverwrite", "::newRowDelta"))
        .containsExactlyInAnyOrder("CommitUpdates.java", "Publish.java");
  }

  private static List<String> filesCalling(String... calls) {
    return SOURCES.stream()
        .flatMap(CommitUpdatesCallersTest::javaFiles)
        .filter(file -> Stream.of(calls).anyMatch(read(file)::contains))
        .map(file -> file.getFileName().toString())
        .toList();
  }

  private static Stream<Path> javaFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
