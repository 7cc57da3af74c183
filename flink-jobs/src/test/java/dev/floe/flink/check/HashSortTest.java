package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The finder's sort of 64-bit hashes, against a list sorted by the unsigned comparison. */
class HashSortTest {

  @Test
  void sortUniformOrdersUniformHashesExtremesAndCrowdedBucketsAsUnsignedNumbers() {
    Random random = new Random(11);
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int kind = random.nextInt(8);
      // Extremes of the unsigned order, hashes sharing their first seven bytes (a crowded bucket
      // down to the last byte) and equal hashes next to uniform ones.
      long hash =
          switch (kind) {
            case 0 -> -1L;
            case 1 -> Long.MIN_VALUE;
            case 2 -> 0L;
            case 3 -> 0x1234_5678_9ABC_DE00L + random.nextInt(3);
            default -> random.nextLong();
          };
      expected.add(hash);
      if (i % 100 == 0) {
        expected.add(hash); // a hash twice
      }
    }
    long[] hashes = expected.stream().mapToLong(Long::longValue).toArray();
    expected.sort(Long::compareUnsigned);

    HashSort.sortUniform(hashes, expected.size());

    assertThat(hashes).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
  }

  @Test
  void sortUniformSortsAMillionHashesLikeArraysSortInUnsignedOrder() {
    Random random = new Random(9);
    long[] hashes = new long[1_000_003];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] =
          switch (random.nextInt(10)) {
            case 0 -> random.nextLong() & 0xFF00_0000_0000_00FFL; // crowded in the middle bytes
            case 1 -> random.nextLong() | Long.MIN_VALUE;
            case 2 -> random.nextInt(5);
            case 3 -> -1L - random.nextInt(5);
            default -> random.nextLong();
          };
    }
    // Arrays.sort orders signed numbers; flipping the sign bit maps unsigned order onto it.
    long[] expected = hashes.clone();
    for (int i = 0; i < expected.length; i++) {
      expected[i] ^= Long.MIN_VALUE;
    }
    Arrays.sort(expected);
    for (int i = 0; i < expected.length; i++) {
      expected[i] ^= Long.MIN_VALUE;
    }

    HashSort.sortUniform(hashes, hashes.length);

    assertThat(Arrays.equals(hashes, expected)).isTrue();
  }

  @Test
  void sortUniformSortsOnlyTheGivenCountAndSmallCounts() {
    for (int count : new int[] {0, 1, 2, 63, 64, 65, 1000}) {
      Random random = new Random(count);
      List<Long> expected = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        expected.add(random.nextLong());
      }
      long[] hashes = new long[count + 2];
      for (int i = 0; i < count; i++) {
        hashes[i] = expected.get(i);
      }
      hashes[count] = 5; // beyond the count: left alone
      hashes[count + 1] = -5;
      expected.sort(Long::compareUnsigned);

      HashSort.sortUniform(hashes, count);

      for (int i = 0; i < count; i++) {
        assertThat(hashes[i]).as("count %d, hash %d", count, i).isEqualTo(expected.get(i));
      }
      assertThat(hashes[count]).isEqualTo(5);
      assertThat(hashes[count + 1]).isEqualTo(-5);
    }
  }

  @Test
  void sortSharingTopByteSortsPartitionsOfAnySizeWithOneScratchAsUnsignedNumbers() {
    Random random = new Random(13);
    int[][] scratch = HashSort.newScratch();
    for (int top : new int[] {0x00, 0x7F, 0x80, 0xFF}) {
      for (int count : new int[] {0, 1, 64, 65, 777, 20_000}) {
        long[] hashes = new long[count + 1];
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          long low = random.nextInt(5) == 0 ? random.nextInt(3) : random.nextLong();
          hashes[i] = ((long) top << 56) | (low & 0x00FF_FFFF_FFFF_FFFFL);
          expected.add(hashes[i]);
        }
        hashes[count] = 42; // beyond the count: left alone
        expected.sort(Long::compareUnsigned);

        HashSort.sortSharingTopByte(hashes, count, scratch);

        for (int i = 0; i < count; i++) {
          assertThat(hashes[i])
              .as("top %x, count %d, hash %d", top, count, i)
              .isEqualTo(expected.get(i));
        }
        assertThat(hashes[count]).isEqualTo(42);
      }
    }
  }
}
