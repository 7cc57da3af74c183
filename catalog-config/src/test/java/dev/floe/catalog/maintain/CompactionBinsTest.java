package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rule by which sort and z-order compaction rewrite a partition. */
class CompactionBinsTest {
  private static final long TARGET = 33_000;

  @Test
  void anOrderedPartitionIsRewrittenForItsSmallFilesOnlyWhenItsBinsWriteFewerFiles() {
    // Two small files beside a large one: 98 KB fill three files at the target, as many as the
    // partition has, so a rewrite would leave the same three.
    List<BinFile> asMany = List.of(file("a", 7_900), file("b", 9_100), file("c", 81_300));
    // Three small files: 45 KB fill one file.
    List<BinFile> fewer = List.of(file("a", 15_000), file("b", 15_000), file("c", 15_000));

    assertThat(CompactionBins.ordered(asMany, TARGET, 100, () -> false)).isEmpty();
    assertThat(CompactionBins.ordered(fewer, TARGET, 100, () -> false)).containsExactly(fewer);
  }

  @Test
  void anOrderedPartitionIsRewrittenWhateverItsFileCountForDeletesOrForOverlap() {
    List<BinFile> asMany = List.of(file("a", 7_900), file("b", 9_100), file("c", 81_300));
    List<BinFile> withDeletes =
        List.of(file("a", 7_900), file("b", 9_100), new BinFile("c", 81_300, 1000, true));

    assertThat(CompactionBins.ordered(asMany, TARGET, 100, () -> true)).containsExactly(asMany);
    assertThat(CompactionBins.ordered(withDeletes, TARGET, 100, () -> false))
        .containsExactly(withDeletes);
  }

  private static BinFile file(String location, long bytes) {
    return new BinFile(location, bytes, 1000, false);
  }
}
