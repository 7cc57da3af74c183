package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The finder against a naive count: hashes seen 3+ times, (0,0), extreme values, tiny memory. */
class DuplicateHashFinderRandomTest {
  @TempDir Path dir;

  @Test
  void matchesANaiveCountForRandomInputs() throws Exception {
    Random random = new Random(7);
    for (int round = 0; round < 60; round++) {
      int pool = 1 + random.nextInt(2000);
      long[][] values = new long[pool][];
      for (int i = 0; i < pool; i++) {
        int kind = random.nextInt(6);
        long high = kind == 0 ? 0 : kind == 1 ? Long.MIN_VALUE : kind == 2 ? -1 : random.nextLong();
        long low = random.nextInt(4) == 0 ? 0 : random.nextInt(3) == 0 ? -1 : random.nextLong();
        if (kind == 3) {
          high = random.nextInt(3); // structured
          low = random.nextInt(3);
        }
        values[i] = new long[] {high, low};
      }
      int n = random.nextInt(5000);
      long memory = 17L * (32 << random.nextInt(8));
      TreeMap<String, Integer> naive = new TreeMap<>();
      Path spill = dir.resolve("r" + round);
      try (DuplicateHashFinder finder = new DuplicateHashFinder(memory, spill)) {
        for (int i = 0; i < n; i++) {
          long[] v = values[random.nextInt(pool)];
          finder.add(v[0], v[1]);
          naive.merge(v[0] + ":" + v[1], 1, Integer::sum);
        }
        List<String> expected = new ArrayList<>();
        naive.forEach(
            (k, c) -> {
              if (c > 1) expected.add(k);
            });
        List<String> got = new ArrayList<>();
        long[] prev = null;
        List<long[]> ordered = new ArrayList<>();
        finder.finish(
            (h, l) -> {
              got.add(h + ":" + l);
              ordered.add(new long[] {h, l});
            });
        for (int i = 1; i < ordered.size(); i++) {
          assertThat(
                  HashPairs.compare(
                      ordered.get(i - 1)[0],
                      ordered.get(i - 1)[1],
                      ordered.get(i)[0],
                      ordered.get(i)[1]))
              .as("ascending round %d", round)
              .isNegative();
        }
        assertThat(got)
            .as("round %d memory %d n %d", round, memory, n)
            .containsExactlyInAnyOrderElementsOf(expected);
      }
      if (Files.exists(spill)) {
        try (var s = Files.list(spill)) {
          assertThat(s.count()).as("runs deleted").isZero();
        }
      }
    }
  }
}
