package dev.floe.flink.check;

import java.util.Arrays;

/**
 * 128-bit hashes kept as {@code high, low} pairs in one {@code long[]}: their order (unsigned, high
 * first) and an in-place sort, so that sorted runs of hashes can be merged.
 */
final class HashPairs {
  private static final int INSERTION_SORT = 16;

  private HashPairs() {}

  /** Compares two hashes as unsigned 128-bit numbers. */
  static int compare(long high1, long low1, long high2, long low2) {
    int byHigh = Long.compareUnsigned(high1, high2);
    return byHigh != 0 ? byHigh : Long.compareUnsigned(low1, low2);
  }

  /** Sorts the first {@code count} pairs of {@code pairs} ascending. */
  static void sort(long[] pairs, int count) {
    sortRange(pairs, 0, count - 1);
  }

  /**
   * Sorts the first {@code count} pairs of {@code pairs} ascending, in place, in about linear time
   * for uniform hashes: an in-place radix sort on the bytes of the high half, most significant
   * first (256 buckets a pass, so the places being filled stay in the cache), down to buckets of a
   * few dozen pairs, each then sorted on its own. Crowded hashes take more passes, never more than
   * the eight bytes of the high half.
   */
  static void sortUniform(long[] pairs, int count) {
    radixSort(pairs, 0, count, 56, new int[8][2 * RADIX]);
  }

  private static final int RADIX = 256;

  /** Below this many pairs, a bucket is sorted by comparisons. */
  private static final int RADIX_CUTOFF = 64;

  /**
   * Sorts pairs {@code from} (inclusive) to {@code to} (exclusive) by the byte of the high half at
   * {@code shift} and then each bucket by the next bytes; {@code counts} holds a scratch array per
   * byte.
   */
  private static void radixSort(long[] a, int from, int to, int shift, int[][] counts) {
    if (to - from <= RADIX_CUTOFF || shift < 0) {
      if (to - from > 1) {
        sortRange(a, from, to - 1);
      }
      return;
    }
    int[] scratch = counts[shift >>> 3];
    Arrays.fill(scratch, 0);
    for (int i = from; i < to; i++) {
      scratch[RADIX + (int) ((a[2 * i] >>> shift) & 0xFF)]++;
    }
    // scratch[b]: the next place to fill in bucket b; scratch[RADIX + b]: the end of bucket b.
    int sum = from;
    for (int b = 0; b < RADIX; b++) {
      scratch[b] = sum;
      sum += scratch[RADIX + b];
      scratch[RADIX + b] = sum;
    }
    // Each pair not in its bucket yet starts a cycle: it takes the next place of its bucket, the
    // pair it displaces moves on, until a pair of the starting bucket comes back to the start.
    for (int b = 0; b < RADIX; b++) {
      while (scratch[b] < scratch[RADIX + b]) {
        int start = scratch[b];
        long high = a[2 * start];
        long low = a[2 * start + 1];
        int target = (int) ((high >>> shift) & 0xFF);
        while (target != b) {
          int at = scratch[target]++;
          long displacedHigh = a[2 * at];
          long displacedLow = a[2 * at + 1];
          a[2 * at] = high;
          a[2 * at + 1] = low;
          high = displacedHigh;
          low = displacedLow;
          target = (int) ((high >>> shift) & 0xFF);
        }
        a[2 * start] = high;
        a[2 * start + 1] = low;
        scratch[b]++;
      }
    }
    // The recursion below reuses the scratch of the next byte only, so the ends are read first.
    int[] ends = Arrays.copyOfRange(scratch, RADIX, 2 * RADIX);
    int start = from;
    for (int b = 0; b < RADIX; b++) {
      radixSort(a, start, ends[b], shift - 8, counts);
      start = ends[b];
    }
  }

  private static void sortRange(long[] a, int from, int to) {
    while (to - from > INSERTION_SORT) {
      int mid = (from + to) >>> 1;
      // Median of three as the pivot; the hashes are uniform, so the recursion stays shallow.
      if (less(a, mid, from)) {
        swap(a, mid, from);
      }
      if (less(a, to, from)) {
        swap(a, to, from);
      }
      if (less(a, to, mid)) {
        swap(a, to, mid);
      }
      long pivotHigh = a[2 * mid];
      long pivotLow = a[2 * mid + 1];
      int i = from;
      int j = to;
      while (i <= j) {
        while (compare(a[2 * i], a[2 * i + 1], pivotHigh, pivotLow) < 0) {
          i++;
        }
        while (compare(a[2 * j], a[2 * j + 1], pivotHigh, pivotLow) > 0) {
          j--;
        }
        if (i <= j) {
          swap(a, i++, j--);
        }
      }
      // Recurse into the smaller part, loop on the larger: the stack stays O(log n).
      if (j - from < to - i) {
        sortRange(a, from, j);
        from = i;
      } else {
        sortRange(a, i, to);
        to = j;
      }
    }
    for (int i = from + 1; i <= to; i++) {
      for (int k = i; k > from && less(a, k, k - 1); k--) {
        swap(a, k, k - 1);
      }
    }
  }

  private static boolean less(long[] a, int i, int j) {
    return compare(a[2 * i], a[2 * i + 1], a[2 * j], a[2 * j + 1]) < 0;
  }

  private static void swap(long[] a, int i, int j) {
    long high = a[2 * i];
    long low = a[2 * i + 1];
    a[2 * i] = a[2 * j];
    a[2 * i + 1] = a[2 * j + 1];
    a[2 * j] = high;
    a[2 * j + 1] = low;
  }
}
