package dev.floe.flink.check;

import dev.floe.catalog.job.CheckSpec;
import java.util.ArrayList;
import java.util.List;

/** Decides, once all rows are written, which checks failed. An empty list means commit. */
public final class CheckEvaluator {

  private CheckEvaluator() {}

  /**
   * @param specs the manifest's checks, in order
   * @param stats violations the writers collected (index = position in {@code specs})
   * @param duplicateKeys keys seen more than once, for unique checks (index to violations)
   * @param rows the number of rows in the new slice
   * @return one line per failed check, with samples
   */
  public static List<String> failures(
      List<CheckSpec> specs, CheckStats stats, CheckStats duplicateKeys, long rows) {
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      CheckSpec spec = specs.get(i);
      if (spec instanceof CheckSpec.RowCount count) {
        if ((count.min() != null && rows < count.min())
            || (count.max() != null && rows > count.max())) {
          failures.add(spec.describe() + " failed: the slice has " + rows + " rows");
        }
        continue;
      }
      Violations violations = spec instanceof CheckSpec.Unique ? duplicateKeys.of(i) : stats.of(i);
      if (violations.count() > 0) {
        String what = spec instanceof CheckSpec.Unique ? " duplicated keys" : " rows";
        failures.add(
            spec.describe()
                + " failed: "
                + violations.count()
                + what
                + ", e.g. "
                + String.join("; ", violations.samples()));
      }
    }
    return failures;
  }
}
