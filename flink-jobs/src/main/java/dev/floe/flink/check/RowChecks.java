package dev.floe.flink.check;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.flink.row.RowFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Evaluates the per-row checks (not_null, accepted_values, compared as values of the column's type:
 * {@link AcceptedValueSet}) on each row a writer writes. Checks that need all rows (row_count,
 * unique) are decided in the committer.
 */
public final class RowChecks {
  private final List<RowCheck> checks = new ArrayList<>();
  private final RowFormatter formatter;

  private interface RowCheck {
    void accept(RowData row, CheckStats stats);
  }

  /**
   * Refuses, when a job is planned, an accepted value the column's type cannot hold.
   *
   * @throws IllegalArgumentException naming the value
   */
  public static void validate(CheckSpec.AcceptedValues accepted, RowType rowType) {
    int pos = rowType.getFieldIndex(accepted.column());
    AcceptedValueSet.of(rowType.getTypeAt(pos), pos, accepted.values());
  }

  public RowChecks(List<CheckSpec> specs, RowType rowType) {
    formatter = new RowFormatter(rowType);
    for (int i = 0; i < specs.size(); i++) {
      int index = i;
      CheckSpec spec = specs.get(i);
      if (spec instanceof CheckSpec.NotNull notNull) {
        int[] positions = positions(rowType, notNull.columns());
        checks.add(
            (row, stats) -> {
              for (int pos : positions) {
                if (row.isNullAt(pos)) {
                  stats.of(index).add(formatter.format(row));
                  return;
                }
              }
            });
      } else if (spec instanceof CheckSpec.AcceptedValues accepted) {
        int pos = rowType.getFieldIndex(accepted.column());
        AcceptedValueSet typed =
            AcceptedValueSet.of(rowType.getTypeAt(pos), pos, accepted.values());
        Set<String> texts = new HashSet<>(accepted.values());
        checks.add(
            (row, stats) -> {
              if (!row.isNullAt(pos)
                  && !(typed == null
                      ? texts.contains(formatter.value(row, pos))
                      : typed.accepts(row))) {
                stats.of(index).add(formatter.format(row));
              }
            });
      }
    }
  }

  public boolean isEmpty() {
    return checks.isEmpty();
  }

  public void accept(RowData row, CheckStats stats) {
    for (RowCheck check : checks) {
      check.accept(row, stats);
    }
  }

  private static int[] positions(RowType rowType, List<String> columns) {
    return columns.stream().mapToInt(rowType::getFieldIndex).toArray();
  }
}
