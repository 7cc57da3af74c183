package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The finder's in-memory set: what it gives back when it spills and when it does not. */
class KeyHashSetTest {

  @Test
  void drainSortedGivesEveryHashInUnsignedOrderWithAHashAddedTwiceTwice() {
    Random random = new Random(11);
    KeyHashSet set = new KeyHashSet(20_000);
    List<List<Long>> expected = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      int kind = random.nextInt(8);
      // Extremes of the unsigned order and a crowded bucket next to uniform hashes.
      long high = kind == 0 ? -1L : kind == 1 ? Long.MIN_VALUE : kind == 2 ? 0L : random.nextLong();
      long low = random.nextLong();
      set.add(high, low);
      expected.add(List.of(high, low));
      if (i % 100 == 0) {
        set.add(high, low);
        expected.add(List.of(high, low));
      }
    }
    expected.sort((a, b) -> HashPairs.compare(a.get(0), a.get(1), b.get(0), b.get(1)));

    long[] drained = set.drainSorted();

    assertThat(pairs(drained)).isEqualTo(expected);
    assertThat(set.size()).isZero();
  }

  @Test
  void drainTwiceSortedGivesOnlyTheHashesAddedMoreThanOnceEachOnce() {
    KeyHashSet set = new KeyHashSet(1000);
    for (long i = 0; i < 500; i++) {
      set.add(i * 0x9E3779B97F4A7C15L, i);
    }
    set.add(-1L, 3L);
    set.add(-1L, 3L);
    set.add(-1L, 3L);
    set.add(7 * 0x9E3779B97F4A7C15L, 7);

    assertThat(pairs(set.drainTwiceSorted()))
        .containsExactly(List.of(7 * 0x9E3779B97F4A7C15L, 7L), List.of(-1L, 3L));
    assertThat(set.size()).isZero();
  }

  private static List<List<Long>> pairs(long[] flat) {
    List<List<Long>> pairs = new ArrayList<>();
    for (int i = 0; i < flat.length; i += 2) {
      pairs.add(List.of(flat[i], flat[i + 1]));
    }
    return pairs;
  }
}
