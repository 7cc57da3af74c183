package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** table-without-key and table-without-late-data. */
class TableRulesTest {
  @TempDir Path dir;

  @Test
  void aTableWithoutKeyWrittenByAMergeIsAWarningOnItsTableLine() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB);
    files.write(
        "tables/dim_customer.yaml",
        "# the dimension\n" + LintFiles.DIM_CUSTOMER.replace("key: [customer_id]\n", ""));

    assertThat(files.findings(TableWithoutKey.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.line()).isEqualTo(2);
              assertThat(f.message())
                  .contains("sales.dim_customer declares no key", "merge job dim_customer_merge");
            });
  }

  @Test
  void aTableWithoutKeyNoKeyedJobWritesIsClean() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write("tables/fact_orders.yaml", LintFiles.FACT_ORDERS.replace("key: [order_id]\n", ""));

    assertThat(files.findings(TableWithoutKey.RULE)).isEmpty();
  }

  @Test
  void aPartitionedTableWithoutLateDataIsInfo() {
    LintFiles files = new LintFiles(dir);
    files.write(
        "tables/fact_orders.yaml", LintFiles.FACT_ORDERS.replace("late_data: {window: P3D}\n", ""));

    assertThat(files.findings(TableWithoutLateData.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.INFO);
              assertThat(f.line()).isEqualTo(1);
              assertThat(f.key()).isEqualTo("late_data");
            });
  }

  @Test
  void anUnpartitionedTableOrOneWithLateDataIsClean() {
    LintFiles files = new LintFiles(dir);
    files.write("tables/fact_orders.yaml", LintFiles.FACT_ORDERS);
    files.write("tables/dim_customer.yaml", LintFiles.DIM_CUSTOMER);

    assertThat(files.findings(TableWithoutLateData.RULE)).isEmpty();
  }
}
