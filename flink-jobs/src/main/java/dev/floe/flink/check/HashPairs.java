package dev.floe.flink.check;

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
   * for uniform hashes: the pairs are first moved into buckets by the top bits of their high half
   * (an in-place counting sort, the buckets in the order of those bits), then each bucket is sorted
   * on its own. Hashes crowded into few buckets are still sorted, only more slowly.
   */
  static void sortUniform(long[] pairs, int count) {
    int bits = bucketBits(count);
    if (bits == 0) {
      sort(pairs, count);
      return;
    }
    int buckets = 1 << bits;
    int[] ends = new int[buckets];
    for (int i = 0; i < count; i++) {
      ends[bucket(pairs[2 * i], bits)]++;
    }
    int[] next = new int[buckets];
    int sum = 0;
    for (int b = 0; b < buckets; b++) {
      next[b] = sum;
      sum += ends[b];
      ends[b] = sum;
    }
    // Each pair not in its bucket yet starts a cycle: it takes the next free place of its bucket,
    // the pair it displaces moves on, until a pair of the starting bucket comes back to the start.
    for (int b = 0; b < buckets; b++) {
      while (next[b] < ends[b]) {
        int start = next[b];
        long high = pairs[2 * start];
        long low = pairs[2 * start + 1];
        int target = bucket(high, bits);
        while (target != b) {
          int at = next[target]++;
          long displacedHigh = pairs[2 * at];
          long displacedLow = pairs[2 * at + 1];
          pairs[2 * at] = high;
          pairs[2 * at + 1] = low;
          high = displacedHigh;
          low = displacedLow;
          target = bucket(high, bits);
        }
        pairs[2 * start] = high;
        pairs[2 * start + 1] = low;
        next[b]++;
      }
    }
    int from = 0;
    for (int b = 0; b < buckets; b++) {
      if (ends[b] - from > 1) {
        sortRange(pairs, from, ends[b] - 1);
      }
      from = ends[b];
    }
  }

  /** Bits of bucket index for {@code count} hashes: about four hashes a bucket, at most 2^16. */
  private static int bucketBits(int count) {
    if (count < 64) {
      return 0;
    }
    return Math.min(16, 31 - Integer.numberOfLeadingZeros(count) - 2);
  }

  /** The top {@code bits} bits of {@code high}: buckets in ascending unsigned order. */
  private static int bucket(long high, int bits) {
    return (int) (high >>> (64 - bits));
  }

  /** Sorts pairs {@code from} (inclusive) to {@code to} (exclusive) of {@code pairs} ascending. */
  static void sort(long[] pairs, int from, int to) {
    sortRange(pairs, from, to - 1);
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
