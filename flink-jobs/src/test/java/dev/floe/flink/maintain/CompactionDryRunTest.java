package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What compaction plans and reports without running a job: dry runs and slices with no work. */
class CompactionDryRunTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;

  @BeforeEach
  void createTable() {
    fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
  }

  @Test
  void smallFilesOfAMonthBefore1970AreKeptWithTheTrueReason() {
    Table monthly =
        catalog.create(
            "sales.monthly",
            SmallFiles.SCHEMA,
            org.apache.iceberg.PartitionSpec.builderFor(SmallFiles.SCHEMA)
                .month("order_date")
                .build());
    SmallFiles.append(monthly, "1969-12-31", 5, 2, 1);

    CompactionResult result =
        Compaction.of(catalog.config(), "sales.monthly").slices(List.of("1969-12")).apply();

    assertThat(result.slices().get(0).status())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(result.slices().get(0).detail())
        .isEqualTo(
            "nothing to compact: no file it may rewrite is small (below 3/4 of the target size); 5 small"
                + " file(s) kept whose partition Iceberg cannot prove lies wholly inside the slice"
                + " (its projections of time partitions before 1970 are inexact)");
  }

  @Test
  void aDryRunListsTheSmallFilesAndTheExpectedOutputsAndChangesNothing() {
    SmallFiles.append(fact, "2026-10-03", 12, 5, 1);
    SmallFiles.append(fact, "2026-10-04", 1, 5, 100);
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();
    ContentHash content = TableContent.hash(fact);
    Set<String> warehouse = SmallFiles.warehouse(fact);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03", "2026-10-04"))
            .apply();

    SliceCompaction day3 = result.slices().get(0);
    assertThat(result.dryRun()).isTrue();
    assertThat(result.baseSnapshotId()).isEqualTo(head);
    assertThat(day3.status()).isEqualTo(SliceCompaction.Status.WOULD_COMPACT);
    assertThat(day3.label()).isEqualTo("order_date=[2026-10-03,2026-10-04)");
    assertThat(day3.before().files()).isEqualTo(12);
    assertThat(day3.before().rows()).isEqualTo(60);
    assertThat(day3.rewritten()).isEqualTo(day3.before());
    assertThat(day3.expectedOutputFiles()).isEqualTo(1);
    assertThat(day3.after()).isEqualTo(new FileStats(1, day3.before().bytes(), 60));
    assertThat(day3.detail()).contains("would replace 12 file(s)");
    assertThat(result.slices().get(1).status())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(result.exitCode()).isZero();
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(SmallFiles.warehouse(fact)).isEqualTo(warehouse);
  }

  @Test
  void theExpectedOutputsFollowTheTargetSize() {
    SmallFiles.append(fact, "2026-10-03", 10, 5, 1);
    fact.refresh();
    SliceCompaction whole =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03"))
            .apply()
            .slices()
            .get(0);
    long target = whole.rewritten().bytes() / 3 + 1; // every file stays small, three outputs

    SliceCompaction smaller =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03"))
            .targetFileSizeBytes(target)
            .apply()
            .slices()
            .get(0);

    assertThat(smaller.rewritten().files()).isEqualTo(10);
    assertThat(smaller.expectedOutputFiles()).isEqualTo(3);
    // Three groups of about a target's worth each, so three tasks can rewrite the one partition.
    fact.refresh();
    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            fact,
            fact.currentSnapshot().snapshotId(),
            List.of("2026-10-03"),
            CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("2026-10-03")),
            target);
    assertThat(planned.get(0).groups())
        .hasSize(3)
        .allSatisfy(g -> assertThat(g.inputs().size()).isBetween(3, 4))
        // Balanced, not capped: a group exceeds the target by less than one small file.
        .allSatisfy(g -> assertThat(g.stats().bytes()).isLessThan(2 * target));
    assertThat(planned.get(0).rewritten().files()).isEqualTo(10);
  }

  @Test
  void aSliceWithOneFileOrOnlyLargeFilesHasNothingToCompactAndCommitsNothing() {
    SmallFiles.append(fact, "2026-10-03", 1, 5, 1);
    SmallFiles.append(fact, "2026-10-04", 3, 5, 100);
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03", "2026-10-04", "2026-10-05"))
            .targetFileSizeBytes(1)
            .commit();

    assertThat(result.slices())
        .extracting(SliceCompaction::status)
        .containsOnly(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(result.slices())
        .extracting(SliceCompaction::detail)
        .containsExactly(
            "nothing to compact: no file is small (below 3/4 of the target size)",
            "nothing to compact: no file is small (below 3/4 of the target size)",
            "nothing to compact: the slice has no data files");
    assertThat(result.slices().get(1).after()).isEqualTo(result.slices().get(1).before());
    assertThat(result.exitCode()).isZero();
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(
            Compaction.of(catalog.config(), SmallFiles.FACT)
                .slices(List.of("2026-10-03"))
                .commit()
                .slices()
                .get(0)
                .detail())
        .isEqualTo(
            "nothing to compact: no partition has two or more small files (below 3/4 of the target size)");
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void checkRefusesABadSliceBeforeAnyActionRunsAndApplyAndCommitToo() {
    Compaction bad = Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of("2026-13-01"));

    for (Runnable call : List.<Runnable>of(bad::check, bad::apply, bad::commit)) {
      assertThatThrownBy(call::run)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageStartingWith("Cannot parse --slice '2026-13-01'");
    }
    assertThatThrownBy(
            () ->
                Compaction.of(catalog.config(), "sales.nope").slices(List.of("2026-10-03")).check())
        .isInstanceOf(FloeException.class)
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.INVALID_INPUT));
    assertThat(
            Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of("2026-10-03")).check())
        .extracting(Slice::label)
        .containsExactly("order_date=[2026-10-03,2026-10-04)");
  }
}
