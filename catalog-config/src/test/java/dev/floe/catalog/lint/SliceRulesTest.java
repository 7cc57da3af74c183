package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** slice-not-partition-source and slice-unaligned, for jobs and for backfills. */
class SliceRulesTest {
  @TempDir Path dir;

  private LintFiles dailyJobOn(String partition) {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write(
        "tables/fact_orders.yaml",
        LintFiles.FACT_ORDERS.replace("partition: [order_date]", "partition: " + partition));
    return files;
  }

  @Test
  void aSliceColumnThatIsNotAPartitionSourceIsAFindingOnItsLine() {
    LintFiles files = dailyJobOn("[\"bucket(8, order_id)\"]");

    assertThat(files.findings(SliceNotPartitionSource.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(4);
              assertThat(f.key()).isEqualTo("slice.column");
              assertThat(f.message())
                  .startsWith(
                      "Cannot slice sales.fact_orders by 'order_date': it is not a partition"
                          + " source column (partition: [bucket(8, order_id)])");
            });
  }

  @Test
  void aSliceColumnTheTableLacksIsAFinding() {
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/daily.yaml", LintFiles.DAILY_JOB.replace("{column: order_date}", "{column: day}"));
    files.write("tables/fact_orders.yaml", LintFiles.FACT_ORDERS);

    assertThat(files.findings(SliceNotPartitionSource.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("'day': the table has no such column"));
  }

  @Test
  void aSliceOnThePartitionSourceIsClean() {
    LintFiles files = dailyJobOn("[order_date]");

    assertThat(files.findings(SliceNotPartitionSource.RULE)).isEmpty();
    assertThat(files.findings(SliceUnaligned.RULE)).isEmpty();
  }

  @Test
  void withoutTheTargetsSpecTheSliceIsNotJudged() {
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/daily.yaml", LintFiles.DAILY_JOB.replace("{column: order_date}", "{column: x}"));

    assertThat(files.lint().findings()).isEmpty();
  }

  @Test
  void aSliceOnATransformThatDoesNotCutTimeIsUnaligned() {
    LintFiles files = dailyJobOn("[\"bucket(8, order_date)\"]");

    assertThat(files.findings(SliceUnaligned.RULE))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.message())
                    .isEqualTo(
                        "Cannot slice sales.fact_orders by 'order_date': its partition field"
                            + " bucket(8, order_date) does not cut time into slices"));
  }

  @Test
  void aSliceOnANonTemporalColumnIsUnaligned() {
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB.replace("{column: order_date}", "{column: order_id}"));
    files.write(
        "tables/fact_orders.yaml",
        LintFiles.FACT_ORDERS.replace("partition: [order_date]", "partition: [order_id]"));

    assertThat(files.findings(SliceUnaligned.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("its type is long"));
  }

  @Test
  void aBackfillOfHoursOnADayPartitionedTableIsUnalignedAtFrom() {
    LintFiles files = dailyJobOn("[order_date]");
    files.write(
        "backfills/january.yaml",
        LintFiles.BACKFILL
            .replace("from: 2026-01-01", "from: 2026-01-01T00")
            .replace("to: 2026-02-01", "to: 2026-01-02T00"));

    assertThat(files.findings(SliceUnaligned.RULE))
        .extracting(Finding::file, Finding::line)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                dir.resolve("backfills/january.yaml").toString(), 3),
            org.assertj.core.groups.Tuple.tuple(
                dir.resolve("backfills/january.yaml").toString(), 4));
  }

  @Test
  void aBackfillOfMonthsOnADayPartitionedTableIsClean() {
    LintFiles files = dailyJobOn("[\"day(order_date)\"]");
    files.write(
        "backfills/january.yaml",
        LintFiles.BACKFILL.replace("2026-01-01", "2026-01").replace("2026-02-01", "2026-02"));

    assertThat(files.findings(SliceUnaligned.RULE)).isEmpty();
  }
}
