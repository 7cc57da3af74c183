package dev.floe.flink.check;

import java.util.Arrays;

/**
 * A compact open-addressing set of 128-bit key hashes (two {@code long}s a slot, linear probing)
 * that remembers which hashes were added more than once. 17 bytes a slot, no object per entry. It
 * starts small and doubles up to the capacity it was made with; {@link #isFull} then tells the
 * owner to spill it.
 */
final class KeyHashSet {
  /** Bytes a slot takes: two longs, a used flag and a bit of the seen-twice set. */
  static final int BYTES_PER_SLOT = 17;

  private static final double MAX_LOAD = 0.7;
  private static final int INITIAL_SLOTS = 1 << 10;

  private final int maxSlots;
  private long[] slots; // high, low of slot i at 2i, 2i+1
  private long[] twice; // bit i: slot i was added again
  private byte[] used; // 1 when slot i holds a hash; (0, 0) is a valid hash
  private int mask;
  private int limit;
  private int size;

  /** A set of at most about {@code capacity} hashes. */
  KeyHashSet(int capacity) {
    int needed = (int) Math.min(1 << 30, (long) Math.ceil((capacity + 1) / MAX_LOAD));
    maxSlots = Math.max(16, Integer.highestOneBit(needed - 1) << 1);
    allocate(Math.min(maxSlots, INITIAL_SLOTS));
  }

  /** The number of hashes a set fits in {@code bytes} of memory. */
  static int capacityFor(long bytes) {
    long slotCount = Long.highestOneBit(Math.max(32, bytes / BYTES_PER_SLOT));
    return (int) Math.min(1 << 29, (long) (slotCount * MAX_LOAD) - 1);
  }

  /** Adds a hash; a hash added before is marked as seen twice. */
  void add(long high, long low) {
    int slot = (int) mix(high, low) & mask;
    while (used[slot] != 0) {
      if (slots[2 * slot] == high && slots[2 * slot + 1] == low) {
        twice[slot >>> 6] |= 1L << slot;
        return;
      }
      slot = (slot + 1) & mask;
    }
    used[slot] = 1;
    slots[2 * slot] = high;
    slots[2 * slot + 1] = low;
    size++;
    if (size >= limit && used.length < maxSlots) {
      grow();
    }
  }

  int size() {
    return size;
  }

  boolean isFull() {
    return size >= limit;
  }

  /**
   * The hashes in ascending (unsigned) order as {@code high, low} pairs; a hash seen twice appears
   * twice. Leaves the set empty. Sorted without comparing every pair with every other: the hashes
   * are uniform, so they are first distributed by the top bits of their high half into buckets of a
   * few hashes each (a counting sort, in the order of those bits), and only each bucket is sorted.
   */
  long[] drainSorted() {
    int total = size + twiceCount();
    int bits = bucketBits(total);
    int[] next = new int[(1 << bits) + 1];
    for (int slot = 0; slot < used.length; slot++) {
      if (used[slot] != 0) {
        next[bucket(slots[2 * slot], bits) + 1] += isTwice(slot) ? 2 : 1;
      }
    }
    for (int b = 0; b < 1 << bits; b++) {
      next[b + 1] += next[b];
    }
    int[] starts = next.clone();
    long[] out = new long[2 * total];
    for (int slot = 0; slot < used.length; slot++) {
      if (used[slot] != 0) {
        long high = slots[2 * slot];
        long low = slots[2 * slot + 1];
        int b = bucket(high, bits);
        int at = next[b]++;
        out[2 * at] = high;
        out[2 * at + 1] = low;
        if (isTwice(slot)) {
          at = next[b]++;
          out[2 * at] = high;
          out[2 * at + 1] = low;
        }
      }
    }
    clear();
    for (int b = 0; b < 1 << bits; b++) {
      if (starts[b + 1] - starts[b] > 1) {
        HashPairs.sort(out, starts[b], starts[b + 1]);
      }
    }
    return out;
  }

  /**
   * Only the hashes added more than once, each once, ascending as {@code high, low} pairs: what a
   * set that never spilled reports, without sorting the others. Leaves the set empty.
   */
  long[] drainTwiceSorted() {
    long[] out = new long[2 * twiceCount()];
    int n = 0;
    for (int slot = 0; slot < used.length; slot++) {
      if (used[slot] != 0 && isTwice(slot)) {
        out[n++] = slots[2 * slot];
        out[n++] = slots[2 * slot + 1];
      }
    }
    clear();
    HashPairs.sort(out, n / 2);
    return out;
  }

  private int twiceCount() {
    int count = 0;
    for (long word : twice) {
      count += Long.bitCount(word);
    }
    return count;
  }

  private boolean isTwice(int slot) {
    return (twice[slot >>> 6] & (1L << slot)) != 0;
  }

  private void clear() {
    Arrays.fill(used, (byte) 0);
    Arrays.fill(twice, 0L);
    size = 0;
  }

  /** Bits of bucket index for {@code count} hashes: about four hashes a bucket, at most 2^20. */
  private static int bucketBits(int count) {
    if (count < 64) {
      return 0;
    }
    return Math.min(20, 31 - Integer.numberOfLeadingZeros(count) - 2);
  }

  /** The top {@code bits} bits of {@code high}: buckets in ascending unsigned order. */
  private static int bucket(long high, int bits) {
    return bits == 0 ? 0 : (int) (high >>> (64 - bits));
  }

  private void allocate(int slotCount) {
    slots = new long[2 * slotCount];
    twice = new long[(slotCount + 63) >>> 6];
    used = new byte[slotCount];
    mask = slotCount - 1;
    limit = (int) (slotCount * MAX_LOAD);
  }

  private void grow() {
    long[] oldSlots = slots;
    long[] oldTwice = twice;
    byte[] oldUsed = used;
    allocate(used.length * 2);
    for (int old = 0; old < oldUsed.length; old++) {
      if (oldUsed[old] != 0) {
        long high = oldSlots[2 * old];
        long low = oldSlots[2 * old + 1];
        int slot = (int) mix(high, low) & mask;
        while (used[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        used[slot] = 1;
        slots[2 * slot] = high;
        slots[2 * slot + 1] = low;
        if ((oldTwice[old >>> 6] & (1L << old)) != 0) {
          twice[slot >>> 6] |= 1L << slot;
        }
      }
    }
  }

  /** The hashes are uniform already; folding both halves spreads a test's structured input. */
  private static long mix(long high, long low) {
    long h = high ^ Long.rotateLeft(low, 29);
    h *= 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 32);
  }
}
