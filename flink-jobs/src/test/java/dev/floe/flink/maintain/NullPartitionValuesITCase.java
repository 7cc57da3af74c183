package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A string partition value NULL and the string {@code "null"} are two partitions, which Iceberg's
 * partition paths write alike ({@code s=null}): compaction keeps their files apart, so a query
 * filtering on either still finds its rows by the files' partition values.
 */
class NullPartitionValuesITCase {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "s", Types.StringType.get()));
  private static final String DAY = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void compactionKeepsTheNullAndTheNullStringPartitionsApartAndFilteredReadsFindEveryRow() {
    Table table =
        catalog.create(
            "s.t",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("d").truncate("s", 10).build());
    String[] values = {null, "null", "\"null\""};
    for (long id = 1; id <= 6; id++) {
      TableRows.append(table, row(table, id, values[(int) (id % 3)]));
    }
    table.refresh();
    var before = TableContent.hash(table);

    CompactionResult result =
        Compaction.of(catalog.config(), "s.t").slices(List.of(DAY)).parallelism(1).commit();

    table.refresh();
    assertThat(result.exitCode()).isZero();
    assertThat(TableContent.hash(table)).isEqualTo(before);
    assertThat(ids(table, Expressions.isNull("s"))).containsExactlyInAnyOrder(3L, 6L);
    assertThat(ids(table, Expressions.equal("s", "null"))).containsExactlyInAnyOrder(1L, 4L);
    assertThat(ids(table, Expressions.equal("s", "\"null\""))).containsExactlyInAnyOrder(2L, 5L);
    assertThat(filesPerPartitionValue(table)).containsOnlyKeys("<NULL>", "null", "\"null\"");
  }

  private static Record row(Table table, long id, String s) {
    Map<String, Object> values = new HashMap<>(Map.of("id", id, "d", LocalDate.parse(DAY)));
    values.put("s", s);
    return TableRows.row(table, values);
  }

  private static List<Long> ids(Table table, Expression filter) {
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).where(filter).build()) {
      List<Long> ids = new java.util.ArrayList<>();
      for (Record row : rows) {
        // Partition pruning reads only files whose partition may match; the filter itself is
        // applied here, row by row, as an engine would.
        Object s = row.getField("s");
        Object wanted =
            filter.op() == Expression.Operation.IS_NULL
                ? null
                : ((org.apache.iceberg.expressions.UnboundPredicate<?>) filter).literal().value();
        if (java.util.Objects.equals(
            s == null ? null : s.toString(), wanted == null ? null : wanted.toString())) {
          ids.add((Long) row.getField("id"));
        }
      }
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Integer> filesPerPartitionValue(Table table) {
    Map<String, Integer> files = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        Object s = task.file().partition().get(1, CharSequence.class);
        files.merge(s == null ? "<NULL>" : s.toString(), 1, Integer::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
