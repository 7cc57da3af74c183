package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe rollback` as an operator types it, on the embedded catalog (no Flink job). */
class RollbackCommandTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path home;
  private long first;
  private long second;

  @BeforeEach
  void twoSnapshots() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
      Table table =
          catalog.createTable(TableIdentifier.of("s", "t"), SCHEMA, PartitionSpec.unpartitioned());
      TableRows.append(table, TableRows.row(table, Map.of("id", 1L)));
      first = table.currentSnapshot().snapshotId();
      TableRows.append(table, TableRows.row(table, Map.of("id", 2L)));
      second = table.currentSnapshot().snapshotId();
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aDryRunPrintsTheChangeAndTheUndoRestoresTheChecksum() {
    ContentHash before = checksum();

    CliRun dryRun = floe(home, "rollback", "s.t", "--to-snapshot", "" + first, "--dry-run");
    ContentHash afterDryRun = checksum();
    CliRun rollback = floe(home, "rollback", "s.t", "--to-snapshot", "" + first);
    ContentHash afterRollback = checksum();
    CliRun undo =
        floe(
            home,
            "rollback",
            "s.t",
            "--to-snapshot",
            "" + second,
            "--allow-non-ancestor",
            "--json");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains("would roll back s.t: snapshot " + second + " -> " + first)
        .contains("floe-before-rollback-1")
        .containsPattern("\\(table\\)\\s+2 -> 1\\s+ changed");
    assertThat(afterDryRun).isEqualTo(before);
    assertThat(rollback.exitCode()).as(rollback.err()).isZero();
    assertThat(afterRollback.rows()).isEqualTo(1);
    assertThat(undo.exitCode()).as(undo.err()).isZero();
    assertThat(undo.out()).contains("\"tag\" : \"floe-before-rollback-2\"", "\"ancestor\" : false");
    assertThat(checksum()).isEqualTo(before);
  }

  @Test
  void aDryRunListsOnlyThePartitionsThatChangeAndCountsTheOthers() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "day", Types.IntegerType.get()));
    long before;
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table table =
          catalog.createTable(
              TableIdentifier.of("s", "days"),
              schema,
              PartitionSpec.builderFor(schema).identity("day").build());
      for (int day = 1; day <= 5; day++) {
        TableRows.append(table, TableRows.row(table, Map.of("id", (long) day, "day", day)));
      }
      before = table.currentSnapshot().snapshotId();
      TableRows.append(table, TableRows.row(table, Map.of("id", 9L, "day", 3)));
    } finally {
      Catalogs.close(catalog);
    }

    CliRun dryRun = floe(home, "rollback", "s.days", "--to-snapshot", "" + before, "--dry-run");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .containsPattern("day=3\\s+2 -> 1\\s+ changed")
        .doesNotContain("day=1")
        .doesNotContain("day=5")
        .contains("(4 other partitions unchanged; --json lists every one)");
  }

  @Test
  void aRollbackOfAMainWithoutSnapshotNamesNoTagItDoesNotMake() throws Exception {
    long branchOnly;
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table table =
          catalog.createTable(TableIdentifier.of("s", "u"), SCHEMA, PartitionSpec.unpartitioned());
      table
          .newAppend()
          .appendFile(TableRows.write(table, TableRows.row(table, Map.of("id", 1L))))
          .toBranch("audit-r1")
          .commit();
      table.refresh();
      branchOnly = table.refs().get("audit-r1").snapshotId();
    } finally {
      Catalogs.close(catalog);
    }

    String[] args = {"rollback", "s.u", "--to-snapshot", "" + branchOnly, "--allow-non-ancestor"};
    CliRun dryRun = floe(home, concat(args, "--dry-run"));
    CliRun json = floe(home, concat(args, "--json"));

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains(
            "snapshot (none) -> " + branchOnly, "main had no snapshot: there is no head to tag")
        .doesNotContain("null");
    assertThat(json.exitCode()).as(json.err()).isZero();
    assertThat(new ObjectMapper().readTree(json.out()).get("tag").isNull()).isTrue();
  }

  private static String[] concat(String[] args, String more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = more;
    return all;
  }

  @Test
  void aNonAncestorOrABadTimeIsAUsageError() {
    floe(home, "rollback", "s.t", "--to-snapshot", "" + first);

    CliRun forward = floe(home, "rollback", "s.t", "--to-snapshot", "" + second);
    CliRun badTime = floe(home, "rollback", "s.t", "--to-time", "yesterday");

    assertThat(forward.exitCode()).isEqualTo(2);
    assertThat(forward.err()).contains("is not an ancestor", "--allow-non-ancestor");
    assertThat(badTime.exitCode()).isEqualTo(2);
    assertThat(badTime.err()).contains("Cannot parse --to-time 'yesterday'");
  }

  @Test
  void idsPrintedByJsonAreStringsThatRollbackAcceptsAsIs() throws Exception {
    ObjectMapper json = new ObjectMapper();
    CliRun snapshots = floe(home, "snapshots", "s.t", "--json");
    assertThat(snapshots.exitCode()).as(snapshots.err()).isZero();
    JsonNode oldest = null;
    for (JsonNode row : json.readTree(snapshots.out())) {
      assertThat(row.get("snapshot_id").isTextual()).as(row.toString()).isTrue();
      if (row.get("snapshot_id").asText().equals(Long.toString(first))) {
        oldest = row;
      }
    }
    assertThat(oldest).as(snapshots.out()).isNotNull();

    CliRun rollback =
        floe(
            home, "rollback", "s.t", "--to-snapshot", oldest.get("snapshot_id").asText(), "--json");

    assertThat(rollback.exitCode()).as(rollback.err()).isZero();
    JsonNode result = json.readTree(rollback.out());
    assertThat(result.get("to_snapshot_id").asText()).isEqualTo(Long.toString(first));
    assertThat(result.get("from_snapshot_id").asText()).isEqualTo(Long.toString(second));
    assertThat(result.get("tag").asText()).startsWith("floe-before-rollback-");
    assertThat(checksum().rows()).isEqualTo(1);

    // The same rollback again changes nothing and names no tag it did not make.
    CliRun again =
        floe(
            home, "rollback", "s.t", "--to-snapshot", oldest.get("snapshot_id").asText(), "--json");
    assertThat(again.exitCode()).as(again.err()).isZero();
    JsonNode noOp = json.readTree(again.out());
    assertThat(noOp.get("changed").asBoolean()).isFalse();
    assertThat(noOp.get("tag").isNull()).isTrue();
  }

  private ContentHash checksum() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return TableContent.hash(Catalogs.loadTable(catalog, "s.t"));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
