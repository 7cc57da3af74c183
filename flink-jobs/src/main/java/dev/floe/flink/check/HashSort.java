package dev.floe.flink.check;

import java.util.Arrays;

/**
 * An in-place sort of 64-bit hashes in unsigned order, in about linear time for uniform hashes, so
 * that sorted runs of hashes can be merged.
 */
final class HashSort {
  private static final int RADIX = 256;

  /** Below this many hashes, a bucket is sorted by comparisons. */
  private static final int RADIX_CUTOFF = 64;

  private HashSort() {}

  /**
   * Sorts the first {@code count} hashes of {@code hashes} ascending as unsigned numbers, in place:
   * a radix sort on their bytes, most significant first (256 buckets a pass, so the places being
   * filled stay in the cache), down to buckets of a few dozen hashes, each then sorted on its own.
   * Crowded hashes take more passes, never more than eight.
   */
  static void sortUniform(long[] hashes, int count) {
    radixSort(hashes, 0, count, 56, newScratch());
  }

  /**
   * Sorts like {@link #sortUniform} the first {@code count} hashes of {@code hashes}, which all
   * share their most significant byte: the sort starts at the next byte.
   *
   * @param scratch from {@link #newScratch}, reused from one call to the next
   */
  static void sortSharingTopByte(long[] hashes, int count, int[][] scratch) {
    radixSort(hashes, 0, count, 48, scratch); // a few hashes go straight to the insertion sort
  }

  /** The counts a sort needs, one array per byte (16 KiB): reusable by one thread's sorts. */
  static int[][] newScratch() {
    return new int[8][2 * RADIX];
  }

  /**
   * Sorts {@code from} (inclusive) to {@code to} (exclusive) by the byte at {@code shift} and then
   * each bucket by the next bytes; {@code counts} holds a scratch array per byte.
   */
  private static void radixSort(long[] a, int from, int to, int shift, int[][] counts) {
    if (to - from <= RADIX_CUTOFF || shift < 0) {
      insertionSort(a, from, to);
      return;
    }
    int[] scratch = counts[shift >>> 3];
    Arrays.fill(scratch, 0);
    for (int i = from; i < to; i++) {
      scratch[RADIX + (int) ((a[i] >>> shift) & 0xFF)]++;
    }
    // scratch[b]: the next place to fill in bucket b; scratch[RADIX + b]: the end of bucket b.
    int sum = from;
    for (int b = 0; b < RADIX; b++) {
      scratch[b] = sum;
      sum += scratch[RADIX + b];
      scratch[RADIX + b] = sum;
    }
    // Each hash not in its bucket yet starts a cycle: it takes the next place of its bucket, the
    // hash it displaces moves on, until a hash of the starting bucket comes back to the start.
    for (int b = 0; b < RADIX; b++) {
      while (scratch[b] < scratch[RADIX + b]) {
        int start = scratch[b];
        long hash = a[start];
        int target = (int) ((hash >>> shift) & 0xFF);
        while (target != b) {
          int at = scratch[target]++;
          long displaced = a[at];
          a[at] = hash;
          hash = displaced;
          target = (int) ((hash >>> shift) & 0xFF);
        }
        a[start] = hash;
        scratch[b]++;
      }
    }
    // The recursion sorts by the next bytes with their own scratch arrays, never this one's.
    int start = from;
    for (int b = 0; b < RADIX; b++) {
      int end = scratch[RADIX + b];
      radixSort(a, start, end, shift - 8, counts);
      start = end;
    }
  }

  /** At most {@link #RADIX_CUTOFF} hashes, or hashes equal in every byte already sorted. */
  private static void insertionSort(long[] a, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      long hash = a[i];
      int k = i;
      while (k > from && Long.compareUnsigned(a[k - 1], hash) > 0) {
        a[k] = a[k - 1];
        k--;
      }
      a[k] = hash;
    }
  }
}
