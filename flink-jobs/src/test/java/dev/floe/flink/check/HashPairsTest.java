package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The finder's sorts of 128-bit hashes, against a list sorted by the unsigned comparison. */
class HashPairsTest {

  @Test
  void sortUniformOrdersUniformHashesExtremesAndCrowdedBucketsAsUnsigned128BitNumbers() {
    Random random = new Random(11);
    List<List<Long>> expected = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int kind = random.nextInt(8);
      // Extremes of the unsigned order and a crowded bucket next to uniform hashes.
      long high = kind == 0 ? -1L : kind == 1 ? Long.MIN_VALUE : kind == 2 ? 0L : random.nextLong();
      long low = kind == 3 ? random.nextInt(3) - 1 : random.nextLong();
      expected.add(List.of(high, low));
      if (i % 100 == 0) {
        expected.add(List.of(high, low)); // a hash twice
      }
    }
    long[] pairs = flatten(expected);
    expected.sort((a, b) -> HashPairs.compare(a.get(0), a.get(1), b.get(0), b.get(1)));

    HashPairs.sortUniform(pairs, expected.size());

    assertThat(pairs(pairs, expected.size())).isEqualTo(expected);
  }

  @Test
  void sortUniformSortsOnlyTheGivenCountAndSmallCounts() {
    for (int count : new int[] {0, 1, 2, 63, 64, 65, 1000}) {
      Random random = new Random(count);
      List<List<Long>> expected = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        expected.add(List.of(random.nextLong(), random.nextLong()));
      }
      long[] pairs = new long[2 * count + 4];
      System.arraycopy(flatten(expected), 0, pairs, 0, 2 * count);
      pairs[2 * count] = 5; // beyond the count: left alone
      pairs[2 * count + 3] = -5;
      expected.sort((a, b) -> HashPairs.compare(a.get(0), a.get(1), b.get(0), b.get(1)));

      HashPairs.sortUniform(pairs, count);

      assertThat(pairs(pairs, count)).as("count %d", count).isEqualTo(expected);
      assertThat(pairs[2 * count]).isEqualTo(5);
      assertThat(pairs[2 * count + 3]).isEqualTo(-5);
    }
  }

  private static long[] flatten(List<List<Long>> hashes) {
    long[] flat = new long[2 * hashes.size()];
    for (int i = 0; i < hashes.size(); i++) {
      flat[2 * i] = hashes.get(i).get(0);
      flat[2 * i + 1] = hashes.get(i).get(1);
    }
    return flat;
  }

  private static List<List<Long>> pairs(long[] flat, int count) {
    List<List<Long>> pairs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pairs.add(List.of(flat[2 * i], flat[2 * i + 1]));
    }
    return pairs;
  }
}
