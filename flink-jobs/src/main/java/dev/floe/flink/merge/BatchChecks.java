package dev.floe.flink.merge;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.flink.check.CheckEvaluator;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.RowChecks;
import dev.floe.flink.row.RowDataHasher;
import dev.floe.flink.row.RowFormatter;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The manifest's checks on a keyed batch: they judge the rows the job produces (the source reduced
 * to one row per key), with the same evaluator and messages as an overwrite's.
 */
final class BatchChecks {

  private BatchChecks() {}

  /** One line per failed check; empty means the batch may be committed. */
  static List<String> failures(List<CheckSpec> checks, RowType rowType, Collection<RowData> rows) {
    CheckStats stats = new CheckStats();
    RowChecks rowChecks = new RowChecks(checks, rowType);
    rows.forEach(row -> rowChecks.accept(row, stats));
    CheckStats duplicates = new CheckStats();
    RowFormatter formatter = new RowFormatter(rowType);
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i) instanceof CheckSpec.Unique unique) {
        RowDataHasher hasher = new RowDataHasher(rowType, unique.columns());
        int[] positions = unique.columns().stream().mapToInt(rowType::getFieldIndex).toArray();
        Set<KeyHash> seen = new HashSet<>();
        for (RowData row : rows) {
          if (hasNull(row, positions)) {
            continue; // NULL keys are not duplicates, as in an overwrite's unique check
          }
          long[] hash = hasher.hash128(row);
          if (!seen.add(new KeyHash(hash[0], hash[1]))) {
            duplicates.of(i).add(formatter.columns(row, unique.columns()));
          }
        }
      }
    }
    return CheckEvaluator.failures(checks, stats, duplicates, rows.size());
  }

  private static boolean hasNull(RowData row, int[] positions) {
    for (int pos : positions) {
      if (row.isNullAt(pos)) {
        return true;
      }
    }
    return false;
  }
}
