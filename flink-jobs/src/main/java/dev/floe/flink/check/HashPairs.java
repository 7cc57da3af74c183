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
