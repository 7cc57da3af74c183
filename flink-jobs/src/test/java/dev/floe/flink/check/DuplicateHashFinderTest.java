package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spilling duplicate finder against a plain map of counts, in memory and across runs. */
class DuplicateHashFinderTest {
  /** 128 hashes in memory: a few hundred keys spill many runs. */
  private static final long TINY = 1024;

  @TempDir Path spill;

  @Test
  void reportsEachHashAddedTwiceOnceAndInAscendingOrderWhenAllFitsInMemory() {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(1 << 20, spill)) {
      finder.add(5);
      finder.add(-1); // above every positive hash when compared unsigned
      finder.add(5);
      finder.add(3);
      finder.add(-1);
      finder.add(-1);
      finder.add(0); // a hash of zeros is a hash like any other

      assertThat(duplicates(finder)).containsExactly(5L, -1L);
      assertThat(finder.spilledRuns()).isZero();
    }
  }

  @Test
  void findsADuplicateWhoseCopiesLieInDifferentSpilledRuns() {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      finder.add(42);
      for (long i = 1000; i < 1600; i++) {
        finder.add(i * 0x9E3779B97F4A7C15L);
      }
      finder.add(42); // its first copy was spilled long ago

      assertThat(finder.spilledRuns()).isGreaterThan(2);
      assertThat(duplicates(finder)).containsExactly(42L);
    }
  }

  @Test
  void aHashSeenTwiceInOneRunAndAgainInAnotherIsReportedOnce() {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      finder.add(7);
      finder.add(7);
      for (long i = 1; i < 400; i++) {
        finder.add(i * 0x9E3779B97F4A7C15L);
      }
      finder.add(7);

      assertThat(finder.spilledRuns()).isPositive();
      assertThat(duplicates(finder)).containsExactly(7L);
    }
  }

  @Test
  void findsExactlyTheDuplicatesOfRandomHashesWhateverTheMemory() {
    Random random = new Random(15);
    List<Long> added = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      long hash =
          random.nextInt(10) == 0 && !added.isEmpty()
              ? added.get(random.nextInt(added.size()))
              : random.nextLong();
      added.add(hash);
    }
    List<Long> expected = addedMoreThanOnce(added.stream().mapToLong(Long::longValue).toArray());
    assertThat(expected).hasSizeGreaterThan(100);

    for (long memory : new long[] {TINY, 16 * TINY, 1 << 20}) {
      try (DuplicateHashFinder finder = new DuplicateHashFinder(memory, spill)) {
        for (long hash : added) {
          finder.add(hash);
        }
        assertThat(duplicates(finder)).as("memory %d", memory).isEqualTo(expected);
      }
    }
  }

  @Test
  void manyCopiesOfFewKeysNeverSpill() {
    // A unique check on a low-cardinality column: every key repeated thousands of times. Two
    // copies of a hash are all the report needs, so the array is compacted instead of spilled.
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      for (int copy = 0; copy < 2_000; copy++) {
        for (long key = 0; key < 5; key++) {
          finder.add(key * 0x9E3779B97F4A7C15L);
        }
      }

      assertThat(finder.spilledRuns()).isZero();
      assertThat(duplicates(finder)).hasSize(5);
    }
  }

  @Test
  void heavyCopiesAmongDistinctKeysAreReportedOnceWhenRunsSpill() {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      for (long i = 0; i < 3_000; i++) {
        finder.add(i * 0x9E3779B97F4A7C15L); // distinct: fills and spills runs
        finder.add(11); // the same key, in every run
      }

      assertThat(finder.spilledRuns()).isPositive();
      assertThat(duplicates(finder)).containsExactly(11L);
    }
  }

  @Test
  void aFinderWithRoomForOnlyAFewHashesStillSpillsInsteadOfOverflowing() {
    for (long bytes : new long[] {0, 16, 32, 48, 63, 64, 100}) {
      try (DuplicateHashFinder finder = new DuplicateHashFinder(bytes, spill)) {
        for (long i = 1; i <= 20; i++) {
          finder.add(i * 0x9E3779B97F4A7C15L);
        }
        finder.add(0x9E3779B97F4A7C15L); // the first hash again, spilled long ago

        assertThat(finder.spilledRuns()).as("%d bytes", bytes).isPositive();
        assertThat(duplicates(finder)).as("%d bytes", bytes).containsExactly(0x9E3779B97F4A7C15L);
      }
    }
  }

  @Test
  void runsLongerThanOneReadOrWriteChunkLoseNoHash() {
    // Room for 20,000 hashes: every run spans several 8,192-hash chunks on disk.
    Random random = new Random(5);
    long[] added = new long[200_000];
    for (int i = 0; i < added.length; i++) {
      added[i] = i > 0 && random.nextInt(50) == 0 ? added[random.nextInt(i)] : random.nextLong();
    }
    List<Long> expected = addedMoreThanOnce(added);

    try (DuplicateHashFinder finder =
        new DuplicateHashFinder(2L * DuplicateHashFinder.BYTES_PER_HASH * 20_000, spill)) {
      for (long hash : added) {
        finder.add(hash);
      }

      assertThat(finder.spilledRuns()).isGreaterThan(3);
      assertThat(duplicates(finder)).isEqualTo(expected);
    }
  }

  @Test
  void theArraysAndTheCopyOfAGrowingPartitionNeverExceedTheMemoryGiven() {
    Random random = new Random(21);
    for (long bytes : new long[] {128, 1000, 1024, 100_003, 1 << 20}) {
      // Uniform hashes, hashes crowded into one partition, and many copies of few keys.
      for (int kind = 0; kind < 3; kind++) {
        try (DuplicateHashFinder finder = new DuplicateHashFinder(bytes, spill)) {
          // about 40 arrays' worth: each budget spills a few dozen runs at most
          for (long i = 0; i < Math.min(300_000, 5 * bytes); i++) {
            long hash =
                switch (kind) {
                  case 0 -> random.nextLong();
                  case 1 -> random.nextLong() >>> 8;
                  default -> random.nextInt(50) * 0x9E3779B97F4A7C15L;
                };
            finder.add(hash);
          }
          finder.finish(hash -> {});

          assertThat(finder.peakMemoryBytes())
              .as("%d bytes, kind %d", bytes, kind)
              .isPositive()
              .isLessThanOrEqualTo(
                  Math.max(
                      bytes,
                      DuplicateHashFinder.MIN_CAPACITY * DuplicateHashFinder.BYTES_PER_HASH));
        }
      }
    }
  }

  @Test
  void uniformHashesFillNearlyAllOfTheMemoryBeforeSpilling() {
    // 8 MiB: 1,048,576 longs. A single growing array would spill at half of that, to keep room
    // for its own copy; only one partition's copy needs room here.
    Random random = new Random(3);
    try (DuplicateHashFinder finder = new DuplicateHashFinder(8L << 20, spill)) {
      long first = random.nextLong();
      finder.add(first);
      for (int i = 1; i < 850_000; i++) {
        finder.add(random.nextLong());
      }
      finder.add(first);

      assertThat(finder.spilledRuns()).isZero();
      assertThat(duplicates(finder)).containsExactly(first);
    }
  }

  @Test
  void aTinyBudgetStillHoldsTwoCopiesOfThreeKeysWithoutSpilling() {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(0, spill)) {
      for (int copy = 0; copy < 1_000; copy++) {
        for (long key = 1; key <= 3; key++) {
          finder.add(key);
        }
      }

      assertThat(finder.spilledRuns()).isZero();
      assertThat(duplicates(finder)).containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void keysCrowdedIntoOnePartitionThatOverfillItSpillInsteadOfCompactingEveryFewHashes() {
    // 31 keys sharing their top byte, two copies each (62 hashes) in 128 hashes of memory: after
    // a compaction their partition can grow by only a few places beside its own copy. Compacting
    // again after every few hashes would sort the whole memory again and again; it must spill.
    int added = 0;
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      for (int copy = 0; copy < 500; copy++) {
        for (long key = 1; key <= 31; key++) {
          finder.add(key);
          added++;
        }
      }

      assertThat(finder.compactions()).isLessThanOrEqualTo(added / 16);
      assertThat(duplicates(finder)).hasSize(31);
    }
  }

  @Test
  void moreRunsThanOneMergeOpensAreMergedAFewAtATimeAndLoseNoDuplicate() {
    Random random = new Random(8);
    long[] added = new long[4000];
    for (int i = 0; i < added.length; i++) {
      added[i] = i > 0 && random.nextInt(8) == 0 ? added[random.nextInt(i)] : random.nextLong();
    }
    List<Long> expected = addedMoreThanOnce(added);

    try (DuplicateHashFinder finder = new DuplicateHashFinder(128, spill)) {
      for (long hash : added) {
        finder.add(hash);
      }

      int spilled = finder.spilledRuns();
      assertThat(spilled).isGreaterThan(3 * DuplicateHashFinder.MERGE_FAN_IN);
      List<Long> found = new ArrayList<>();
      int[] mostOpen = {0};
      finder.finish(
          hash -> {
            found.add(hash);
            mostOpen[0] = Math.max(mostOpen[0], openFilesUnder(spill));
          });
      assertThat(found).isEqualTo(expected);
      // the last merge's runs, counted while it reports: never one file per spilled run
      assertThat(mostOpen[0]).isPositive().isLessThanOrEqualTo(DuplicateHashFinder.MERGE_FAN_IN);
      // what the job's counter of spilled runs reports, read after finish: merging changes nothing
      assertThat(finder.spilledRuns()).isEqualTo(spilled);
    }
  }

  /** The files under {@code directory} this process has open (Linux: /proc/self/fd). */
  private static int openFilesUnder(Path directory) {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int)
          fds.filter(
                  fd -> {
                    try {
                      return Files.readSymbolicLink(fd).startsWith(directory);
                    } catch (IOException e) {
                      return false; // closed while listed
                    }
                  })
              .count();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void closeDeletesTheSpilledRuns() throws IOException {
    try (DuplicateHashFinder finder = new DuplicateHashFinder(TINY, spill)) {
      for (long i = 0; i < 500; i++) {
        finder.add(i);
      }
      assertThat(finder.spilledRuns()).isPositive();
      assertThat(files()).isNotEmpty();
    }
    assertThat(files()).isEmpty();
  }

  /** The hashes added more than once, each once, in unsigned order: what a finder must report. */
  private static List<Long> addedMoreThanOnce(long[] added) {
    Map<Long, Integer> counts = new HashMap<>();
    for (long hash : added) {
      counts.merge(hash, 1, Integer::sum);
    }
    return counts.entrySet().stream()
        .filter(e -> e.getValue() > 1)
        .map(Map.Entry::getKey)
        .sorted(Long::compareUnsigned)
        .toList();
  }

  private static List<Long> duplicates(DuplicateHashFinder finder) {
    List<Long> found = new ArrayList<>();
    finder.finish(found::add);
    return found;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> listed = Files.list(spill)) {
      return listed.toList();
    }
  }
}
