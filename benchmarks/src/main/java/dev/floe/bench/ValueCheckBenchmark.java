package dev.floe.bench;

import dev.floe.flink.write.DataFileWriters;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.types.Types;

/**
 * What the writers' value checks cost ({@code ValueGuard}: every string is UTF-8): {@code rows}
 * rows of a long and two strings of about 28 bytes written by Floe's writer (checks on) and by
 * Iceberg's writer directly (the baseline), alternated in one JVM, for ASCII strings and for
 * strings with one accented letter. Prints the medians of the measured rounds and their ratio. Run
 * with {@code benchmarks/run.sh checks [rows] [rounds]} (defaults 5000000 and 6; the first round of
 * each path warms up and is not counted).
 */
public final class ValueCheckBenchmark {

  private ValueCheckBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 5_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    PrintStream out = System.out;
    BenchRuntime.printHeader(
        out,
        "Floe value-check benchmark",
        "no Flink job: writers only",
        "a Hadoop table on the local FS, Parquet");
    out.printf(
        "- rows: %,d per round, %d rounds per path (the first not counted)%n%n", rows, rounds);
    out.println(
        "| strings | Iceberg's writer, median s | Floe's writer (checks), median s | ratio |");
    out.println("|---|---:|---:|---:|");
    Path root = BenchRuntime.workDir(null, "floe-bench-checks-");
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "s", Types.StringType.get()),
            Types.NestedField.optional(3, "t", Types.StringType.get()));
    Table table = new HadoopTables().create(schema, PartitionSpec.unpartitioned(), root + "/t");
    RowType rowType = FlinkSchemaUtil.convert(schema);
    for (String kind : List.of("ascii", "accented")) {
      StringData[] pool = new StringData[1000];
      for (int i = 0; i < pool.length; i++) {
        pool[i] =
            StringData.fromString(
                "customer-name-" + i + (kind.equals("ascii") ? "-e-" : "-\u00e9-") + i * 7919);
      }
      List<Double> plain = new ArrayList<>();
      List<Double> checked = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        for (boolean checks : new boolean[] {false, true}) {
          TaskWriter<RowData> writer;
          if (checks) {
            writer = DataFileWriters.create(table, rowType, round, 1);
          } else {
            RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                    table,
                    rowType,
                    512L << 20,
                    FileFormat.PARQUET,
                    table.properties(),
                    List.of(),
                    false);
            factory.initialize(round, 0);
            writer = factory.create();
          }
          double seconds = write(writer, rows, pool);
          if (round > 0) {
            (checks ? checked : plain).add(seconds);
          }
        }
      }
      double base = median(plain);
      double floe = median(checked);
      out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.2f× |%n", kind, base, floe, floe / base);
    }
  }

  private static double write(TaskWriter<RowData> writer, int rows, StringData[] pool)
      throws Exception {
    GenericRowData row = new GenericRowData(3);
    long started = System.nanoTime();
    for (int i = 0; i < rows; i++) {
      row.setField(0, (long) i);
      row.setField(1, pool[i % pool.length]);
      row.setField(2, pool[(i * 31) % pool.length]);
      writer.write(row);
    }
    writer.complete();
    return (System.nanoTime() - started) / 1e9;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
