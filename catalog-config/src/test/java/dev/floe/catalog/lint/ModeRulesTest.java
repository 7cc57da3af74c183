package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * overwrite-without-slice, merge-without-key, merge-without-ordering, insert-if-absent-without-key
 * and delete-missing-without-slice.
 */
class ModeRulesTest {
  @TempDir Path dir;

  private LintFiles files() {
    return new LintFiles(dir);
  }

  @Test
  void anOverwriteWithoutSliceIsAFindingOnItsModeLine() {
    LintFiles files = files();
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB
            .replace("slice: {column: order_date}\n", "")
            .replace("WHERE order_date >= :slice_start AND order_date < :slice_end\n", ""));

    assertThat(files.lint().findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(OverwriteWithoutSlice.RULE.id());
              assertThat(f.line()).isEqualTo(3);
              assertThat(f.message())
                  .contains("Cannot overwrite sales.fact_orders without a slice");
            });
  }

  @Test
  void anOverwriteWithASliceOrASwapWithoutOneIsClean() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write(
        "jobs/swap.yaml",
        """
        job: rebuild
        target: sales.small
        mode: swap
        timeout: PT1H
        query: SELECT 1 AS id
        """);

    assertThat(files.findings(OverwriteWithoutSlice.RULE)).isEmpty();
  }

  @Test
  void aMergeWithoutKeyAndNoLintedSpecIsAFinding() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB.replace("key: [customer_id]\n", ""));

    assertThat(files.findings(MissingKey.MERGE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(3);
              assertThat(f.message())
                  .contains("sales.dim_customer", "no table spec for it is among the linted files");
            });
  }

  @Test
  void aMergeWithoutKeyIntoASpecWithoutKeyIsAFindingNamingTheSpec() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB.replace("key: [customer_id]\n", ""));
    files.write(
        "tables/dim_customer.yaml", LintFiles.DIM_CUSTOMER.replace("key: [customer_id]\n", ""));

    assertThat(files.findings(MissingKey.MERGE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("its table spec", "declares none"));
  }

  @Test
  void aMergeTakingItsKeyFromTheLintedSpecIsClean() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB.replace("key: [customer_id]\n", ""));
    files.write("tables/dim_customer.yaml", LintFiles.DIM_CUSTOMER);

    assertThat(files.findings(MissingKey.MERGE)).isEmpty();
  }

  @Test
  void aMergeWithoutOrderingIsAFindingOnItsModeLine() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB.replace("ordering: updated_at\n", ""));

    assertThat(files.findings(MergeWithoutOrdering.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(3);
              assertThat(f.key()).isEqualTo("ordering");
            });
  }

  @Test
  void aSlicedMergeWhoseKeyLacksTheSliceColumnIsAWarningOnItsSlice() {
    LintFiles files = files();
    String sliced =
        LintFiles.MERGE_JOB.replace(
            "timeout: PT30M\n", "timeout: PT30M\nslice: {column: updated_day}\n");
    files.write("jobs/merge.yaml", sliced);
    files.write(
        "jobs/merge_keyed_by_day.yaml",
        sliced
            .replace("job: dim_customer_merge", "job: by_day")
            .replace("key: [customer_id]", "key: [customer_id, updated_day]"));

    assertThat(files.findings(SlicedKeyWithoutSliceColumn.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.file()).endsWith("merge.yaml").doesNotContain("keyed_by_day");
              assertThat(f.key()).isEqualTo("slice");
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.message())
                  .contains(
                      "A key [customer_id] of sales.dim_customer whose updated_day changes is not"
                          + " seen in its new slice");
            });
  }

  @Test
  void anUnslicedMergeHasNoSlicedKeyWarning() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB);

    assertThat(files.findings(SlicedKeyWithoutSliceColumn.RULE)).isEmpty();
  }

  @Test
  void aMergeWithOrderingIsClean() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB);

    assertThat(files.findings(MergeWithoutOrdering.RULE)).isEmpty();
  }

  @Test
  void anInsertIfAbsentWithoutKeyIsAFinding() {
    LintFiles files = files();
    files.write(
        "jobs/events.yaml",
        """
        job: events
        target: sales.events
        mode: insert-if-absent
        timeout: PT1H
        query: SELECT event_id, payload FROM sales.raw_events
        """);

    assertThat(files.findings(MissingKey.INSERT_IF_ABSENT))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("the insert-if-absent job matches"));
  }

  @Test
  void anInsertIfAbsentWithKeyIsClean() {
    LintFiles files = files();
    files.write(
        "jobs/events.yaml",
        """
        job: events
        target: sales.events
        mode: insert-if-absent
        key: [event_id]
        timeout: PT1H
        query: SELECT event_id, payload FROM sales.raw_events
        """);

    assertThat(files.lint().findings()).isEmpty();
  }

  @Test
  void deleteMissingWithoutSliceIsAFindingOnItsLine() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB + "delete_missing: true\n");

    assertThat(files.lint().findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(DeleteMissingWithoutSlice.RULE.id());
              assertThat(f.line()).isEqualTo(8);
            });
  }

  @Test
  void deleteMissingWithASliceIsClean() {
    LintFiles files = files();
    files.write(
        "jobs/merge.yaml",
        LintFiles.MERGE_JOB.replace(
                "query: SELECT customer_id, tier, updated_at FROM sales.staging_customer",
                "slice: {column: updated_at}\nquery: SELECT * FROM s WHERE updated_at >="
                    + " :slice_start AND updated_at < :slice_end")
            + "delete_missing: true\n");

    assertThat(files.findings(DeleteMissingWithoutSlice.RULE)).isEmpty();
  }
}
