package dev.floe.flink.check;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Key hashes that occur more than once, per unique check, as the duplicate finders report them:
 * candidates only, since two different keys may share a 128-bit hash. {@code DuplicateKeySamples}
 * confirms them against the written keys. Kept as {@code high, low} pairs, 16 bytes a hash.
 */
public final class DuplicateKeys {

  /** A key's 128-bit hash. */
  public record KeyHash(long high, long low) {}

  private final Map<Integer, long[]> hashes = new TreeMap<>();
  private final Map<Integer, Integer> sizes = new TreeMap<>();

  /** Adds {@code pairs} ({@code high, low}, …) for the unique check at {@code checkIndex}. */
  public void add(int checkIndex, long[] pairs) {
    long[] held = hashes.getOrDefault(checkIndex, new long[0]);
    int size = sizes.getOrDefault(checkIndex, 0);
    if (size + pairs.length > held.length) {
      held = Arrays.copyOf(held, Math.max(size + pairs.length, 2 * held.length));
    }
    System.arraycopy(pairs, 0, held, size, pairs.length);
    hashes.put(checkIndex, held);
    sizes.put(checkIndex, size + pairs.length);
  }

  /** Adds one hash for the unique check at {@code checkIndex}. */
  public void add(int checkIndex, long high, long low) {
    add(checkIndex, new long[] {high, low});
  }

  /** The indexes of the unique checks with at least one candidate. */
  public Set<Integer> checks() {
    return sizes.keySet();
  }

  /**
   * The candidate hashes of a check, ascending (unsigned, high first), each once, as {@code high,
   * low} pairs: the order in which they are confirmed and sampled, whatever the parallelism.
   */
  public long[] sorted(int checkIndex) {
    int size = sizes.getOrDefault(checkIndex, 0);
    long[] pairs = Arrays.copyOf(hashes.getOrDefault(checkIndex, new long[0]), size);
    HashPairs.sort(pairs, size / 2);
    int distinct = 0;
    for (int i = 0; i < size; i += 2) {
      if (distinct == 0 || pairs[i] != pairs[distinct - 2] || pairs[i + 1] != pairs[distinct - 1]) {
        pairs[distinct++] = pairs[i];
        pairs[distinct++] = pairs[i + 1];
      }
    }
    return Arrays.copyOf(pairs, distinct);
  }
}
