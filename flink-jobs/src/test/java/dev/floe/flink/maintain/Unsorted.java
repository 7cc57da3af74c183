package dev.floe.flink.maintain;

import dev.floe.catalog.testing.TableRows;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;

/** Small files of {@link SmallFiles#SCHEMA} whose order ids are shuffled across files. */
public final class Unsorted {
  private Unsorted() {}

  /**
   * Appends {@code files} files of {@code rowsPerFile} rows to one day, in one commit: order ids
   * 1..files*rowsPerFile in an order shuffled by {@code seed}, so every file spans about the whole
   * id range; customer ids a permutation of the same range (id * 7919 modulo the row count), so
   * both columns span the same values, as z-order wants.
   */
  public static void append(Table table, String day, int files, int rowsPerFile, long seed) {
    List<Long> ids = new ArrayList<>();
    long count = (long) files * rowsPerFile;
    for (long id = 1; id <= count; id++) {
      ids.add(id);
    }
    Collections.shuffle(ids, new Random(seed));
    AppendFiles append = table.newAppend();
    for (int f = 0; f < files; f++) {
      Record[] rows = new Record[rowsPerFile];
      for (int r = 0; r < rowsPerFile; r++) {
        long id = ids.get(f * rowsPerFile + r);
        rows[r] =
            TableRows.row(
                table,
                Map.of(
                    "order_id",
                    id,
                    "customer_id",
                    (id * 7919) % count,
                    "amount",
                    BigDecimal.valueOf(id % 100_000, 2),
                    "order_date",
                    LocalDate.parse(day)));
      }
      append.appendFile(TableRows.write(table, rows));
    }
    append.commit();
    table.refresh();
  }
}
