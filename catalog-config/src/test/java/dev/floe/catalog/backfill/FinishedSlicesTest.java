package dev.floe.catalog.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A slice a backfill loaded is finished (skipped when the backfill runs again) only while its
 * sources provably hold what that load read for it: unchanged, or appended to only with rows of
 * other slices. Oct 3 and 4 are loaded by backfill b1 from s.staging (partitioned by day).
 */
class FinishedSlicesTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private Table staging;

  @BeforeEach
  void twoDaysLoadedByABackfill() {
    fact = LineageCommits.create(catalog.catalog(), "s.fact", Map.of());
    staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    LineageCommits.append(staging, "2026-10-03", 2);
    LineageCommits.append(staging, "2026-10-04", 2);
    for (String day : List.of("2026-10-03", "2026-10-04")) {
      LineageCommits.load(fact, day, "r" + day, "job", 2, null, List.of(staging), "b1");
    }
  }

  @Test
  void aSliceWhoseSourceIsUnchangedOrOnlyReceivedRowsOfOtherDaysIsFinished() {
    assertThat(status("2026-10-03").isFinished()).isTrue();
    LineageCommits.append(staging, "2026-10-10", 3);
    LineageCommits.append(staging, "2026-10-04", 1);

    assertThat(status("2026-10-03").isFinished()).isTrue();
    assertThat(status("2026-10-03").finished().lineage().runId()).isEqualTo("r2026-10-03");
    assertThat(status("2026-10-04").isFinished()).isFalse();
    assertThat(status("2026-10-04").runAgainBecause())
        .startsWith("s.staging changed since snapshot ")
        .endsWith(" the load read: rows of d=[2026-10-04,2026-10-05) were appended");
    // Another backfill (or run key) never finds the slice finished, and says nothing about why.
    assertThat(finished().status(LineageCommits.day("2026-10-03"), "key-job-2026-10-03", "b2"))
        .isEqualTo(new FinishedSlices.Status(null, null));
  }

  @Test
  void aQueryThatMayReadBeyondItsSliceRunsAgainAfterAnyAppendButNotAfterACompaction() {
    Optional<String> window = Optional.of("the query reads the two days before its slice");
    // A compaction of the source: a replace snapshot, no row in or out.
    DataFile compacted = staging.currentSnapshot().addedDataFiles(staging.io()).iterator().next();
    staging
        .newRewrite()
        .deleteFile(compacted)
        .addFile(
            TableRows.write(
                staging,
                TableRows.row(staging, Map.of("id", 900L, "d", LocalDate.parse("2026-10-04"))),
                TableRows.row(staging, Map.of("id", 901L, "d", LocalDate.parse("2026-10-04")))))
        .commit();
    staging.refresh();
    assertThat(staging.currentSnapshot().operation()).isEqualTo("replace");
    assertThat(
            finished(window)
                .status(LineageCommits.day("2026-10-03"), "key-job-2026-10-03", "b1")
                .isFinished())
        .isTrue();

    LineageCommits.append(staging, "2026-10-02", 1);

    FinishedSlices.Status status =
        finished(window).status(LineageCommits.day("2026-10-03"), "key-job-2026-10-03", "b1");
    assertThat(status.isFinished()).isFalse();
    assertThat(status.runAgainBecause())
        .endsWith(
            " the load read: appends, and the job's query may read rows outside"
                + " d=[2026-10-03,2026-10-04) (the query reads the two days before its slice)");
    assertThat(status("2026-10-03").isFinished()).as("a query that reads its slice only").isTrue();
  }

  @Test
  void anOverwriteOrDeleteOfTheSourceMakesEverySliceItFedRunAgain() {
    long delete = deleteDay("2026-10-10");

    assertThat(status("2026-10-03").isFinished()).isFalse();
    assertThat(status("2026-10-03").runAgainBecause()).endsWith(": delete snapshot " + delete);
    assertThat(status("2026-10-04").isFinished()).isFalse();
  }

  @Test
  void aSourceThatCannotBeLoadedMakesTheSliceRunAgain() {
    catalog.catalog().dropTable(TableIdentifier.of("s", "staging"));

    assertThat(status("2026-10-03").runAgainBecause())
        .startsWith("cannot load source table s.staging: ");
  }

  @Test
  void aSliceChangedAfterTheBackfillLoadedItRunsAgain() {
    fact.newDelete().deleteFromRowFilter(LineageCommits.day("2026-10-03").toExpression()).commit();

    assertThat(status("2026-10-03").runAgainBecause())
        .startsWith("the slice changed after this backfill loaded it in snapshot ");
    assertThat(status("2026-10-04").isFinished()).isTrue();
  }

  @Test
  void aSliceLoadedBeforeTheTablesSchemaChangedRunsAgain() {
    fact.updateSchema().addColumn("note", org.apache.iceberg.types.Types.StringType.get()).commit();

    assertThat(status("2026-10-03").runAgainBecause())
        .startsWith("the table's schema changed after this backfill loaded the slice in snapshot ");
  }

  private long deleteDay(String day) {
    LineageCommits.append(staging, day, 1);
    staging.newDelete().deleteFromRowFilter(LineageCommits.day(day).toExpression()).commit();
    staging.refresh();
    return staging.currentSnapshot().snapshotId();
  }

  private FinishedSlices.Status status(String day) {
    return finished().status(LineageCommits.day(day), "key-job-" + day, "b1");
  }

  private FinishedSlices finished() {
    return finished(Optional.empty());
  }

  private FinishedSlices finished(Optional<String> readsBeyondSlice) {
    fact.refresh();
    return FinishedSlices.of(
        fact,
        name -> catalog.catalog().loadTable(TableIdentifier.parse(name)),
        () -> readsBeyondSlice);
  }
}
