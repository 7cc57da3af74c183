package dev.floe.flink.write;

import dev.floe.catalog.job.CheckSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Emits a 128-bit hash of each row's key for every unique check. Only hashes travel (plus the key
 * as text for the message): a duplicate is found by grouping on the hash, not by shipping rows.
 */
final class UniqueKeys {
  static final TypeInformation<Tuple4<Integer, Long, Long, String>> TYPE =
      Types.TUPLE(Types.INT, Types.LONG, Types.LONG, Types.STRING);

  private record KeyCheck(int index, RowDataHasher hasher, int[] positions, List<String> names) {}

  private final List<KeyCheck> keyChecks = new ArrayList<>();
  private final RowFormatter formatter;

  UniqueKeys(List<CheckSpec> checks, RowType rowType) {
    formatter = new RowFormatter(rowType);
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i) instanceof CheckSpec.Unique unique) {
        int[] positions = unique.columns().stream().mapToInt(rowType::getFieldIndex).toArray();
        keyChecks.add(
            new KeyCheck(
                i, new RowDataHasher(rowType, unique.columns()), positions, unique.columns()));
      }
    }
  }

  void emit(RowData row, Consumer<Tuple4<Integer, Long, Long, String>> out) {
    for (KeyCheck check : keyChecks) {
      if (hasNull(row, check.positions())) {
        continue; // like SQL UNIQUE and dbt's unique test: NULL keys are not duplicates
      }
      long[] hash = check.hasher().hash128(row);
      StringBuilder key = new StringBuilder();
      for (int i = 0; i < check.positions().length; i++) {
        key.append(i == 0 ? "" : ", ")
            .append(check.names().get(i))
            .append('=')
            .append(formatter.value(row, check.positions()[i]));
      }
      // The check index is mixed in so two unique checks never group together.
      out.accept(
          Tuple4.of(check.index(), hash[0] ^ (31L * check.index()), hash[1], key.toString()));
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
