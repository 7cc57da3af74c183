package dev.floe.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
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

  @Test
  void onlyCommitUpdatesAndPublishsTransactionsCreateOverwritesAndRowDeltas() {
    assertThat(MainSources.ROOTS).allMatch(Files::isDirectory);
    assertThat(filesCalling(".newOverwrite()", ".newRowDelta()", "::newOverwrite", "::newRowDelta"))
        .containsExactlyInAnyOrder("CommitUpdates.java", "Publish.java");
  }

  private static List<String> filesCalling(String... calls) {
    return MainSources.javaFiles()
        .filter(file -> Stream.of(calls).anyMatch(MainSources.read(file)::contains))
        .map(file -> file.getFileName().toString())
        .toList();
  }
}
