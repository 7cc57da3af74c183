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

/** The finder against a naive count: hashes seen 3+ times, 0, extreme values, tiny memory. */
class DuplicateHashFinderRandomTest {
  @TempDir Path dir;

  @Test
  void matchesANaiveCountForRandomInputs() throws Exception {
    Random random = new Random(7);
    for (int round = 0; round < 60; round++) {
      int pool = 1 + random.nextInt(2000);
      long[] values = new long[pool];
      for (int i = 0; i < pool; i++) {
        int kind = random.nextInt(6);
        values[i] =
            switch (kind) {
              case 0 -> 0;
              case 1 -> Long.MIN_VALUE;
              case 2 -> -1;
              case 3 -> random.nextInt(3) << 8 | random.nextInt(3); // structured
              default -> random.nextLong();
            };
      }
      int n = random.nextInt(5000);
      long memory = 17L * (32 << random.nextInt(8));
      TreeMap<String, Integer> naive = new TreeMap<>();
      Path spill = dir.resolve("r" + round);
      try (DuplicateHashFinder finder = new DuplicateHashFinder(memory, spill)) {
        for (int i = 0; i < n; i++) {
          long v = values[random.nextInt(pool)];
          finder.add(v);
          naive.merge(Long.toString(v), 1, Integer::sum);
        }
        List<String> expected = new ArrayList<>();
        naive.forEach(
            (k, c) -> {
              if (c > 1) expected.add(k);
            });
        List<String> got = new ArrayList<>();
        List<Long> ordered = new ArrayList<>();
        finder.finish(
            h -> {
              got.add(Long.toString(h));
              ordered.add(h);
            });
        for (int i = 1; i < ordered.size(); i++) {
          assertThat(Long.compareUnsigned(ordered.get(i - 1), ordered.get(i)))
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
