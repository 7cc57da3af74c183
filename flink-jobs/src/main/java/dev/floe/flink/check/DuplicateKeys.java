package dev.floe.flink.check;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Key hashes that occur more than once, per unique check, as the duplicate finders report them:
 * candidates only, since two different keys may share a 64-bit hash ({@link KeyHashBatch}). {@code
 * DuplicateKeySamples} confirms them against the written keys.
 */
public final class DuplicateKeys {

  private final Map<Integer, long[]> hashes = new TreeMap<>();
  private final Map<Integer, Integer> sizes = new TreeMap<>();

  /** Adds one candidate hash for the unique check at {@code checkIndex}. */
  public void add(int checkIndex, long candidate) {
    add(checkIndex, new long[] {candidate});
  }

  /** Adds {@code candidates} for the unique check at {@code checkIndex}. */
  public void add(int checkIndex, long[] candidates) {
    long[] held = hashes.getOrDefault(checkIndex, new long[0]);
    int size = sizes.getOrDefault(checkIndex, 0);
    if (size + candidates.length > held.length) {
      held = Arrays.copyOf(held, Math.max(size + candidates.length, 2 * held.length));
    }
    System.arraycopy(candidates, 0, held, size, candidates.length);
    hashes.put(checkIndex, held);
    sizes.put(checkIndex, size + candidates.length);
  }

  /** The indexes of the unique checks with at least one candidate. */
  public Set<Integer> checks() {
    return sizes.keySet();
  }

  /**
   * The candidate hashes of a check, ascending (unsigned), each once: the order in which they are
   * confirmed and sampled, whatever the parallelism.
   */
  public long[] sorted(int checkIndex) {
    int size = sizes.getOrDefault(checkIndex, 0);
    long[] sorted = Arrays.copyOf(hashes.getOrDefault(checkIndex, new long[0]), size);
    HashSort.sortUniform(sorted, size);
    int distinct = 0;
    for (int i = 0; i < size; i++) {
      if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
        sorted[distinct++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, distinct);
  }
}
