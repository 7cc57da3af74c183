package dev.floe.flink.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Duplicated keys per unique check, as the duplicate finder reports them: by hash. */
public final class DuplicateKeys {
  static final int MAX_SAMPLES = Violations.MAX_SAMPLES;

  /** A key's 128-bit hash. */
  public record KeyHash(long high, long low) {}

  private final Map<Integer, Long> counts = new TreeMap<>();
  private final Map<Integer, List<KeyHash>> samples = new TreeMap<>();

  public void add(int checkIndex, long high, long low) {
    counts.merge(checkIndex, 1L, Long::sum);
    List<KeyHash> sampled = samples.computeIfAbsent(checkIndex, i -> new ArrayList<>());
    if (sampled.size() < MAX_SAMPLES) {
      sampled.add(new KeyHash(high, low));
    }
  }

  /** The indexes of the unique checks with at least one duplicated key. */
  public Set<Integer> failedChecks() {
    return counts.keySet();
  }

  public long count(int checkIndex) {
    return counts.getOrDefault(checkIndex, 0L);
  }

  public List<KeyHash> samples(int checkIndex) {
    return List.copyOf(samples.getOrDefault(checkIndex, List.of()));
  }
}
