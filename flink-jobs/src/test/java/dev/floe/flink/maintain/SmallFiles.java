package dev.floe.flink.maintain;

import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** A fact table fed many small files, and ways to look at its files. */
public final class SmallFiles {
  public static final String FACT = "sales.fact_orders";
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(4, "order_date", Types.DateType.get()));
  public static final PartitionSpec BY_DAY =
      PartitionSpec.builderFor(SCHEMA).identity("order_date").build();

  private SmallFiles() {}

  /**
   * Appends {@code files} Parquet files of {@code rowsPerFile} rows each to one day, in one commit.
   * Order ids start at {@code firstId}, so every row is distinct.
   */
  public static void append(Table table, String day, int files, int rowsPerFile, long firstId) {
    AppendFiles append = table.newAppend();
    long id = firstId;
    for (int f = 0; f < files; f++) {
      Record[] rows = new Record[rowsPerFile];
      for (int r = 0; r < rowsPerFile; r++, id++) {
        rows[r] =
            TableRows.row(
                table,
                Map.of(
                    "order_id",
                    id,
                    "customer_id",
                    id % 7,
                    "amount",
                    BigDecimal.valueOf(id % 1000, 2),
                    "order_date",
                    LocalDate.parse(day)));
      }
      DataFile file = TableRows.write(table, rows);
      append.appendFile(file);
    }
    append.commit();
  }

  /** The live data file paths of one day. */
  public static Set<String> dataFiles(Table table, String day) {
    table.refresh();
    Set<String> paths = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .filter(Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay()))
            .planFiles()) {
      tasks.forEach(t -> paths.add(t.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths;
  }

  /** Every file under the table's location (data and metadata), as relative paths. */
  static Set<String> warehouse(Table table) {
    String location = table.location();
    Path root =
        location.startsWith("file:") ? Path.of(java.net.URI.create(location)) : Path.of(location);
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString())
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
