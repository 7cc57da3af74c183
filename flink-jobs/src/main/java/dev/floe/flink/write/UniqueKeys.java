package dev.floe.flink.write;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.flink.row.RowDataHasher;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Emits the 128-bit hash of each row's key, for every unique check. Only hashes travel and are
 * sorted: a duplicate is found by grouping on the hash. The few keys a failure message shows are
 * looked up afterwards, in the written files ({@code DuplicateKeySamples}).
 */
final class UniqueKeys {
  static final TypeInformation<Tuple3<Integer, Long, Long>> TYPE =
      Types.TUPLE(Types.INT, Types.LONG, Types.LONG);

  private record KeyCheck(int index, RowDataHasher hasher, int[] positions) {}

  private final List<KeyCheck> keyChecks = new ArrayList<>();

  UniqueKeys(List<CheckSpec> checks, RowType rowType) {
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i) instanceof CheckSpec.Unique unique) {
        int[] positions = unique.columns().stream().mapToInt(rowType::getFieldIndex).toArray();
        keyChecks.add(new KeyCheck(i, new RowDataHasher(rowType, unique.columns()), positions));
      }
    }
  }

  /** Emits (check index, key hash high, key hash low); the index keeps two checks apart. */
  void emit(RowData row, Consumer<Tuple3<Integer, Long, Long>> out) {
    for (KeyCheck check : keyChecks) {
      if (hasNull(row, check.positions())) {
        continue; // like SQL UNIQUE and dbt's unique test: NULL keys are not duplicates
      }
      long[] hash = check.hasher().hash128(row);
      out.accept(Tuple3.of(check.index(), hash[0], hash[1]));
    }
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
