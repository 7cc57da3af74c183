package dev.floe.flink.check;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Violations per check, collected by each writer while it writes and merged by the committer. Keyed
 * by the check's position in the manifest, so two checks on the same column stay apart.
 */
public final class CheckStats implements Serializable {
  private final Map<Integer, Violations> byCheck = new LinkedHashMap<>();

  public Violations of(int checkIndex) {
    return byCheck.computeIfAbsent(checkIndex, i -> new Violations());
  }

  public void merge(CheckStats other) {
    other.byCheck.forEach((index, violations) -> of(index).merge(violations));
  }

  public long count(int checkIndex) {
    Violations violations = byCheck.get(checkIndex);
    return violations == null ? 0 : violations.count();
  }
}
