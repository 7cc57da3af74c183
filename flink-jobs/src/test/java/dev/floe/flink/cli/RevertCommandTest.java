package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe revert` as an operator types it, on the embedded catalog (no Flink job): three commits made
 * the way Floe's slice committer makes them, one per day, then reverts of the middle one.
 */
class RevertCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @TempDir Path home;

  @BeforeEach
  void threeRunsOnThreeDays() {
    withTable(
        table -> {
          floeCommit(table, "r1", "2026-10-01", 1, 2);
          floeCommit(table, "r2", "2026-10-02", 3);
          floeCommit(table, "r3", "2026-10-03", 4, 5, 6);
          return null;
        });
  }

  @Test
  void aDryRunChangesNothingAndTheRevertNamesItsSnapshotAndItsUndo() throws Exception {
    long head = head();
    ContentHash before = checksum();
    ContentHash day1 = checksum("2026-10-01");
    ContentHash day3 = checksum("2026-10-03");

    CliRun dryRun = floe(home, "revert", "s.t", "--run", "r2", "--dry-run");
    long headAfterDryRun = head();
    ContentHash afterDryRun = checksum();
    CliRun revert = floe(home, "revert", "s.t", "--run", "r2", "--json");
    JsonNode result = JSON.readTree(revert.out());

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains("would revert run r2 of s.t (job daily, snapshot")
        .contains("slice d=[2026-10-02,2026-10-03): back to its content in snapshot")
        .contains("files: 1 removed, 0 re-added")
        .containsPattern("d=2026-10-02\\s+1 -> 0\\s+ changed")
        .doesNotContain("new snapshot");
    assertThat(headAfterDryRun).isEqualTo(head);
    assertThat(afterDryRun).isEqualTo(before);
    assertThat(revert.exitCode()).as(revert.err()).isZero();
    assertThat(result.get("status").asText()).isEqualTo("reverted");
    assertThat(result.get("revert_snapshot_id").asLong()).isEqualTo(head());
    assertThat(result.get("undo").asText())
        .isEqualTo("floe revert s.t --run " + result.get("revert_run_id").asText());
    assertThat(result.get("undo_by_rollback").asText())
        .isEqualTo("floe rollback s.t --to-snapshot " + head);
    assertThat(result.get("rows_before").get("d=2026-10-02").asLong()).isEqualTo(1);
    assertThat(checksum("2026-10-02")).isEqualTo(ContentHash.empty());
    assertThat(checksum("2026-10-01")).isEqualTo(day1);
    assertThat(checksum("2026-10-03")).isEqualTo(day3);
    ContentHash expected = ContentHash.empty();
    expected.merge(day1);
    expected.merge(day3);
    assertThat(checksum()).isEqualTo(expected);

    JsonNode history = JSON.readTree(floe(home, "snapshots", "s.t", "--json").out());
    assertThat(history.get(0).get("reverts").asText()).isEqualTo("r2");
    assertThat(history.get(0).get("mode").asText()).isEqualTo("revert");
    assertThat(floe(home, "snapshots", "s.t").out()).contains("daily (reverts r2)");
  }

  @Test
  void theTextOutputNamesTheNewSnapshotAndHowToUndoIt() {
    long head = head();

    CliRun revert = floe(home, "revert", "s.t", "--run", "r2");

    assertThat(revert.exitCode()).as(revert.err()).isZero();
    assertThat(revert.out())
        .contains("reverted run r2 of s.t")
        .contains("new snapshot " + head() + ", run ")
        .contains("(floe.reverts=r2)")
        .contains("undo: floe revert s.t --run ")
        .contains("(or: floe rollback s.t --to-snapshot " + head + ")");
  }

  @Test
  void aLaterRunOnTheSliceRefusesTheRevertWithExit2AndForceListsWhatItDiscards() {
    long later = withTable(table -> floeCommit(table, "r4", "2026-10-02", 7, 8));
    ContentHash afterLater = checksum();

    CliRun refused = floe(home, "revert", "s.t", "--run", "r2");
    CliRun dryRun = floe(home, "revert", "s.t", "--run", "r2", "--dry-run");
    ContentHash afterRefusals = checksum();
    CliRun forced = floe(home, "revert", "s.t", "--run", "r2", "--force");

    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err())
        .contains("Cannot revert run r2 of s.t: later commits changed slice d=[2026-10-02,")
        .contains("run r4 (job daily, snapshot " + later + ")")
        .contains("--force");
    assertThat(refused.out()).isEmpty();
    assertThat(dryRun.exitCode()).isEqualTo(2);
    assertThat(dryRun.out())
        .contains("blocked by later commits", "run r4 (job daily, snapshot " + later + ")");
    assertThat(afterRefusals).isEqualTo(afterLater);
    assertThat(forced.exitCode()).as(forced.err()).isZero();
    assertThat(forced.out())
        .contains("discarded (--force)", "run r4 (job daily, snapshot " + later + ")")
        .containsPattern("d=2026-10-02\\s+2 -> 0\\s+ changed");
    assertThat(checksum("2026-10-02")).isEqualTo(ContentHash.empty());
  }

  @Test
  void aSecondRevertIsANoOpAndRevertingTheRevertRestoresTheRun() throws Exception {
    ContentHash afterRuns = checksum();
    JsonNode first = JSON.readTree(floe(home, "revert", "s.t", "--run", "r2", "--json").out());
    String revertRun = first.get("revert_run_id").asText();

    CliRun again = floe(home, "revert", "s.t", "--run", "r2");
    CliRun undo = floe(home, "revert", "s.t", "--run", revertRun);

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("already reverted by run " + revertRun, "(no-op)");
    assertThat(undo.exitCode()).as(undo.err()).isZero();
    assertThat(checksum()).isEqualTo(afterRuns);
  }

  @Test
  void aRevertRetriedAfterALaterRunOfTheSliceIsANoOpWithExit0AlsoWithForce() throws Exception {
    JsonNode first = JSON.readTree(floe(home, "revert", "s.t", "--run", "r2", "--json").out());
    String revertRun = first.get("revert_run_id").asText();
    withTable(table -> floeCommit(table, "r4", "2026-10-02", 7, 8));
    long head = head();
    ContentHash afterLater = checksum();

    CliRun again = floe(home, "revert", "s.t", "--run", "r2");
    CliRun dryRun = floe(home, "revert", "s.t", "--run", "r2", "--dry-run");
    CliRun forced = floe(home, "revert", "s.t", "--run", "r2", "--force");
    CliRun json = floe(home, "revert", "s.t", "--run", "r2", "--json");
    CliRun forcedJson = floe(home, "revert", "s.t", "--run", "r2", "--force", "--json");

    for (CliRun run : new CliRun[] {again, dryRun, forced}) {
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      assertThat(run.out())
          .startsWith("run r2 of s.t is already reverted by run " + revertRun)
          .contains("nothing to do (no-op)")
          .doesNotContain("discarded", "blocked");
    }
    for (CliRun run : new CliRun[] {json, forcedJson}) {
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      JsonNode result = JSON.readTree(run.out());
      assertThat(result.get("status").asText()).isEqualTo("already-reverted");
      assertThat(result.get("refusal").isNull()).isTrue();
      assertThat(result.get("revert_snapshot_id").isNull()).isTrue();
      assertThat(result.get("removed_files")).isEmpty();
      assertThat(result.get("restored_files")).isEmpty();
      assertThat(result.get(result.get("force").asBoolean() ? "discarded" : "blocked_by"))
          .isEmpty();
    }
    assertThat(head()).isEqualTo(head);
    assertThat(checksum()).isEqualTo(afterLater);
  }

  @Test
  void aDryRunOfARunAlreadyRevertedReportsTheNoOpAndNamesTheRevertAsTheRealCommandDoes()
      throws Exception {
    JsonNode first = JSON.readTree(floe(home, "revert", "s.t", "--run", "r2", "--json").out());
    String revertRun = first.get("revert_run_id").asText();
    long revertSnapshot = first.get("revert_snapshot_id").asLong();
    ContentHash afterRevert = checksum();

    CliRun dryJson = floe(home, "revert", "s.t", "--run", "r2", "--dry-run", "--json");
    CliRun dryText = floe(home, "revert", "s.t", "--run", "r2", "--dry-run");
    CliRun realJson = floe(home, "revert", "s.t", "--run", "r2", "--json");

    for (CliRun run : new CliRun[] {dryJson, realJson}) {
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      JsonNode result = JSON.readTree(run.out());
      assertThat(result.get("status").asText()).isEqualTo("already-reverted");
      JsonNode by = result.get("already_reverted_by");
      assertThat(by.get("snapshot_id").asLong()).isEqualTo(revertSnapshot);
      assertThat(by.get("run_id").asText()).isEqualTo(revertRun);
      assertThat(by.get("reverts").asText()).isEqualTo("r2");
      assertThat(result.get("revert_snapshot_id").isNull()).isTrue();
    }
    assertThat(JSON.readTree(dryJson.out()).get("dry_run").asBoolean()).isTrue();
    assertThat(JSON.readTree(realJson.out()).get("dry_run").asBoolean()).isFalse();
    assertThat(dryText.exitCode()).as(dryText.err()).isZero();
    assertThat(dryText.out())
        .isEqualTo(
            "run r2 of s.t is already reverted by run "
                + revertRun
                + " (a revert of run r2, snapshot "
                + revertSnapshot
                + "): nothing to do (no-op)"
                + System.lineSeparator());
    assertThat(checksum()).isEqualTo(afterRevert);
  }

  @Test
  void aRevertInEffectIsNullInTheJsonOfARevertThatChangesTheSlice() throws Exception {
    JsonNode dryRun =
        JSON.readTree(floe(home, "revert", "s.t", "--run", "r2", "--dry-run", "--json").out());

    assertThat(dryRun.get("status").asText()).isEqualTo("dry-run");
    assertThat(dryRun.get("already_reverted_by").isNull()).isTrue();
  }

  @Test
  void aDryRunOfARevertThatWouldChangeNothingSaysSoAsTheRealCommandDoes() throws Exception {
    withTable(table -> floeCommit(table, "r0", "2026-10-05"));

    CliRun dryText = floe(home, "revert", "s.t", "--run", "r0", "--dry-run");
    JsonNode dryJson =
        JSON.readTree(floe(home, "revert", "s.t", "--run", "r0", "--dry-run", "--json").out());
    CliRun realText = floe(home, "revert", "s.t", "--run", "r0");
    JsonNode realJson = JSON.readTree(floe(home, "revert", "s.t", "--run", "r0", "--json").out());

    assertThat(dryText.exitCode()).as(dryText.err()).isZero();
    assertThat(dryText.out())
        .startsWith("nothing to revert run r0 of s.t")
        .contains("it already holds that content; nothing was committed");
    assertThat(realText.out()).startsWith("nothing to revert run r0 of s.t");
    assertThat(dryJson.get("status").asText()).isEqualTo("nothing-to-revert");
    assertThat(realJson.get("status").asText()).isEqualTo("nothing-to-revert");
    assertThat(dryJson.get("already_reverted_by").isNull()).isTrue();
  }

  @Test
  void anUnknownRunOrAMissingRunOptionIsAUsageError() {
    CliRun unknown = floe(home, "revert", "s.t", "--run", "nope");
    CliRun missing = floe(home, "revert", "s.t");

    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("Cannot revert run nope of s.t: no snapshot of the current history")
        .contains("floe snapshots s.t");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("--run");
  }

  @Test
  void helpExplainsTheCommand() {
    CliRun help = floe(home, "revert", "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("Usage: floe revert", "--run", "--force", "--dry-run");
  }

  /** Commits like Floe's slice committer: overwrite the day, lineage in the summary. */
  private static long floeCommit(Table table, String runId, String day, long... ids) {
    Slice slice = SliceResolver.resolve("s.t", table, "d", day);
    OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(slice.toExpression());
    RecordHasher hasher = new RecordHasher(table.schema());
    ContentHash content = ContentHash.empty();
    if (ids.length > 0) {
      Record[] rows = new Record[ids.length];
      for (int i = 0; i < ids.length; i++) {
        rows[i] = TableRows.row(table, Map.of("id", ids[i], "d", LocalDate.parse(day)));
        hasher.add(rows[i], content);
      }
      overwrite.addFile(TableRows.write(table, rows));
    }
    new Lineage("key", runId, "daily", "overwrite", slice.label(), "test", 0, null, Map.of(), null)
        .withContent(content)
        .toSummary()
        .forEach(overwrite::set);
    overwrite.commit();
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  private <T> T withTable(Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      if (!((SupportsNamespaces) catalog).namespaceExists(Namespace.of("s"))) {
        ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
        catalog.createTable(
            TableIdentifier.of("s", "t"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("d").build(),
            Map.of("format-version", "2"));
      }
      return action.apply(Catalogs.loadTable(catalog, "s.t"));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private long head() {
    return withTable(table -> table.currentSnapshot().snapshotId());
  }

  private ContentHash checksum() {
    return withTable(TableContent::hash);
  }

  private ContentHash checksum(String day) {
    return withTable(
        table ->
            TableContent.hash(
                table, Expressions.equal("d", (int) LocalDate.parse(day).toEpochDay())));
  }
}
