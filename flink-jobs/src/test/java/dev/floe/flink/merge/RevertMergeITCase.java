package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.snapshot.RevertPlan;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reverting real merge runs (keyed, copy-on-write, no slice) on a table of 100 day partitions: the
 * revert swaps back only the files the merge rewrote or added, a later merge of other partitions
 * survives it, and a later merge of the same partitions blocks it.
 */
class RevertMergeITCase {
  private static final String MERGE =
      """
      job: events_merge
      target: sales.events
      mode: merge
      ordering: version
      query: %s
      """
          .formatted(EventTables.QUERY);
  private static final List<Integer> MERGED_DAYS = List.of(0, 50, 99);

  @TempDir Path home;
  private CatalogConfig config;
  private EventTables tables;

  private Catalog catalog;

  @BeforeEach
  void createTheHundredDays() {
    config = CatalogConfigLoader.embedded(home);
    tables = new EventTables(config).create();
    catalog = Catalogs.open(config);
  }

  @AfterEach
  void closeTheCatalog() {
    Catalogs.close(catalog);
  }

  /** Reverts through a catalog that stays open (the revert refreshes the table first). */
  private Revert revert(String runId) {
    return Revert.of(Catalogs.loadTable(catalog, "sales.events"), "sales.events").run(runId);
  }

  @Test
  void revertingAMergeRestoresOnlyTheFilesItChangedAndKeepsALaterMergeOfOtherDays() {
    ContentHash mergedDaysBefore = TableContent.hash(tables.events(), days(MERGED_DAYS));
    Set<String> filesBefore = files();
    tables.staging(
        new Object[] {5, 0, "v2", 2}, // updates id 5 of day 0
        new Object[] {505, 50, "v2", 2}, // updates id 505 of day 50
        new Object[] {10_000, 99, "new", 1}); // inserts a new key into day 99
    RunResult merge = run();
    Set<String> filesAfterMerge = files();
    tables.staging(new Object[] {105, 10, "later", 3}); // a later merge of day 10 only
    RunResult later = run();
    ContentHash otherDays = TableContent.hash(tables.events(), Expressions.not(days(MERGED_DAYS)));
    Set<String> filesBeforeRevert = files();

    RevertPlan plan = revert(merge.runId()).commit();

    Table reverted = tables.events();
    assertThat(merge.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(later.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(plan.later()).isEmpty();
    assertThat(plan.region())
        .isEqualTo(
            "the partitions the run changed (event_day=2026-01-01, event_day=2026-02-20,"
                + " event_day=2026-04-10)");
    // Exactly the merge's own change is undone: the 3 files it added go, the 2 it rewrote return.
    Set<String> added = new TreeSet<>(filesAfterMerge);
    added.removeAll(filesBefore);
    Set<String> rewritten = new TreeSet<>(filesBefore);
    rewritten.removeAll(filesAfterMerge);
    assertThat(plan.removedFiles()).containsExactlyInAnyOrderElementsOf(added).hasSize(3);
    assertThat(plan.restoredFiles()).containsExactlyInAnyOrderElementsOf(rewritten).hasSize(2);
    Set<String> expectedFiles = new TreeSet<>(filesBeforeRevert);
    expectedFiles.removeAll(added);
    expectedFiles.addAll(rewritten);
    assertThat(files()).isEqualTo(expectedFiles);
    assertThat(reverted.currentSnapshot().summary())
        .containsEntry("deleted-data-files", "3")
        .containsEntry("added-data-files", "2")
        .containsEntry("floe.reverts", merge.runId())
        .containsEntry("floe.job", "events_merge");
    // Content: the merged days as before the merge, every other day as after the later merge.
    assertThat(TableContent.hash(reverted, days(MERGED_DAYS))).isEqualTo(mergedDaysBefore);
    assertThat(TableContent.hash(reverted, Expressions.not(days(MERGED_DAYS))))
        .isEqualTo(otherDays);
    ContentHash expected = ContentHash.empty();
    expected.merge(mergedDaysBefore);
    expected.merge(otherDays);
    assertThat(TableContent.hash(reverted)).isEqualTo(expected);
    assertThat(tables.rows()).contains("5:v1:1", "505:v1:1", "105:later:3").hasSize(1000);
  }

  @Test
  void aLaterMergeOfTheSameDayBlocksTheRevertAndAMergeAfterTheRevertAppliesAgain() {
    tables.staging(new Object[] {5, 0, "v2", 2});
    RunResult first = run();
    ContentHash afterFirst = TableContent.hash(tables.events());
    tables.staging(new Object[] {6, 0, "v2", 2});
    RunResult second = run();
    long head = tables.events().currentSnapshot().snapshotId();

    assertThatThrownBy(() -> revert(first.runId()).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("later commits changed the partitions the run changed")
        .hasMessageContaining("run " + second.runId() + " (job events_merge");
    assertThat(tables.events().currentSnapshot().snapshotId()).isEqualTo(head);

    // Revert the second merge instead, then replay its batch: the merge's own probe sees id 6
    // back at version 1 and updates it again (not a no-op), to exactly the state after it.
    ContentHash afterSecond = TableContent.hash(tables.events());
    revert(second.runId()).commit();
    ContentHash afterRevert = TableContent.hash(tables.events());
    RunResult replay = run();

    assertThat(afterRevert).isEqualTo(afterFirst);
    assertThat(replay.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(replay.outcome().detail()).contains("0 inserted, 1 updated");
    assertThat(TableContent.hash(tables.events())).isEqualTo(afterSecond);
  }

  private RunResult run() {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(MERGE), null));
  }

  private static Expression days(List<Integer> offsets) {
    Expression any = Expressions.alwaysFalse();
    for (int offset : offsets) {
      any =
          Expressions.or(
              any,
              Expressions.equal(
                  "event_day", (int) EventTables.FIRST_DAY.plusDays(offset).toEpochDay()));
    }
    return any;
  }

  private Set<String> files() {
    Set<String> paths = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks = tables.events().newScan().planFiles()) {
      tasks.forEach(t -> paths.add(t.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths;
  }
}
