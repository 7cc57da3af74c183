package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every data file a run writes carries the partition its rows belong to, whether the slice fits one
 * partition of the target (written without a partition key per row) or spans several (fanned out
 * per row). The rows' dates are read from the files themselves, not from the partition values a
 * table scan would fill in for an identity partition.
 */
class SlicePartitionsITCase {
  private static final LocalDate FIRST = LocalDate.of(2026, 10, 1);
  private static final int DAYS = 5;
  private static final int ROWS_PER_DAY = 40;

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void stageFiveDays() {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders(FIRST, DAYS, ROWS_PER_DAY);
  }

  @Test
  void aDaySliceWritesItsRowsIntoThatDaysPartitionOnly() throws IOException {
    RunResult result = run("2026-10-03");

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(rowsByPartitionAfterCheckingEveryFile())
        .isEqualTo(Map.of(LocalDate.of(2026, 10, 3), (long) ROWS_PER_DAY));
    LocalDate day = LocalDate.of(2026, 10, 3);
    assertThat(seed.dayHash(ExampleTables.FACT_ORDERS, day))
        .isEqualTo(seed.dayHash(ExampleTables.STAGING_ORDERS, day));
  }

  @Test
  void aMonthSliceWritesEachDayIntoItsOwnPartition() throws IOException {
    RunResult result = run("2026-10");

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    Map<LocalDate, Long> expected = new TreeMap<>();
    for (int d = 0; d < DAYS; d++) {
      expected.put(FIRST.plusDays(d), (long) ROWS_PER_DAY);
    }
    assertThat(rowsByPartitionAfterCheckingEveryFile()).isEqualTo(expected);
    for (LocalDate day : expected.keySet()) {
      assertThat(seed.dayHash(ExampleTables.FACT_ORDERS, day))
          .isEqualTo(seed.dayHash(ExampleTables.STAGING_ORDERS, day));
    }
  }

  private RunResult run(String slice) {
    String noChecks =
        ExampleTables.BACKFILL_JOB.substring(0, ExampleTables.BACKFILL_JOB.indexOf("checks:"));
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(noChecks), slice));
  }

  /**
   * Reads the order_date stored in every row of every live data file of fact_orders, asserts it
   * equals the file's partition value, and counts the rows per partition.
   */
  private Map<LocalDate, Long> rowsByPartitionAfterCheckingEveryFile() throws IOException {
    Table fact = seed.table(ExampleTables.FACT_ORDERS);
    Schema dateOnly = fact.schema().select("order_date");
    Map<LocalDate, Long> rows = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = fact.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        LocalDate partition = LocalDate.ofEpochDay(file.partition().get(0, Integer.class));
        try (CloseableIterable<Record> records =
            Parquet.read(fact.io().newInputFile(file.location()))
                .project(dateOnly)
                .createReaderFunc(type -> GenericParquetReaders.buildReader(dateOnly, type))
                .build()) {
          for (Record record : records) {
            assertThat(record.getField("order_date"))
                .as("a row of %s, in partition order_date=%s", file.location(), partition)
                .isEqualTo(partition);
            rows.merge(partition, 1L, Long::sum);
          }
        }
      }
    }
    return rows;
  }
}
