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
import java.time.LocalDate;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe maintain --compact --slice` as an operator types it: a Flink job, one commit per slice. */
class MaintainCompactITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @TempDir Path home;

  /** Day 3 in five one-row files, day 4 in one. */
  @BeforeEach
  void smallFiles() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
      Table table =
          catalog.createTable(
              TableIdentifier.of("s", "t"),
              SCHEMA,
              PartitionSpec.builderFor(SCHEMA).identity("d").build());
      for (long id = 1; id <= 5; id++) {
        TableRows.append(table, row(table, id, "2026-10-03"));
      }
      TableRows.append(table, row(table, 6, "2026-10-04"));
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void compactsTheSliceInOneCommitWithTheSameContentAfterADryRunThatChangesNothing()
      throws Exception {
    ContentHash before = withTable("s.t", TableContent::hash);
    long snapshotBefore = withTable("s.t", t -> t.currentSnapshot().snapshotId());

    CliRun dryRun =
        floe(home, "maintain", "s.t", "--compact", "--slice", "2026-10-03", "--dry-run");
    long afterDryRun = withTable("s.t", t -> t.currentSnapshot().snapshotId());
    CliRun compact = floe(home, "maintain", "s.t", "--compact", "--slice", "2026-10-03", "--json");
    ContentHash after = withTable("s.t", TableContent::hash);
    String operation = withTable("s.t", t -> t.currentSnapshot().operation());
    long parent = withTable("s.t", t -> t.currentSnapshot().parentId());
    long day4Rows =
        withTable(
            "s.t",
            t ->
                TableContent.hash(
                        t, Expressions.equal("d", (int) LocalDate.parse("2026-10-04").toEpochDay()))
                    .rows());

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out()).contains("compact");
    assertThat(afterDryRun).isEqualTo(snapshotBefore);
    assertThat(compact.exitCode()).as(compact.err()).isZero();
    JsonNode action = JSON.readTree(compact.out()).get("actions").get(0);
    assertThat(action.get("action").asText()).isEqualTo("compact");
    assertThat(action.get("before").get("data_files").asLong()).isEqualTo(6);
    assertThat(action.get("after").get("data_files").asLong()).isEqualTo(2);
    assertThat(after).isEqualTo(before);
    assertThat(operation).isEqualTo("replace");
    assertThat(parent).isEqualTo(snapshotBefore);
    assertThat(day4Rows).isEqualTo(1);
  }

  @Test
  void compactWithoutSlicesPicksThePolicysSlicesAndSlicesWithoutCompactIsAUsageError() {
    CliRun noSlice = floe(home, "maintain", "s.t", "--compact", "--dry-run");
    CliRun noCompact = floe(home, "maintain", "s.t", "--slice", "2026-10-03", "--expire");
    CliRun badSlice = floe(home, "maintain", "s.t", "--compact", "--slice", "2026-13-03");

    // Day 3 holds 5 small files (min_input_files 5 by default), day 4 one.
    assertThat(noSlice.exitCode()).as(noSlice.err()).isZero();
    assertThat(noSlice.out()).contains("2026-10-03").doesNotContain("2026-10-04");
    assertThat(noCompact.exitCode()).isEqualTo(2);
    assertThat(noCompact.err()).contains("Cannot use --slice without --compact or");
    assertThat(badSlice.exitCode()).isEqualTo(2);
    assertThat(badSlice.err()).contains("2026-13-03");
  }

  private static org.apache.iceberg.data.Record row(Table table, long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }

  private <T> T withTable(String name, Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, name));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
