package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.testing.PastedCommand;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe tags`, `floe tag` and `floe untag` as an operator types them (no Flink job). */
class TagCommandsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  private long first;
  private long second;

  /** Two snapshots, the second a Floe commit with lineage, and an empty table. */
  @BeforeEach
  void twoSnapshots() {
    withCatalog(
        catalog -> {
          ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
          Table table =
              catalog.createTable(
                  TableIdentifier.of("s", "t"), SCHEMA, PartitionSpec.unpartitioned());
          catalog.createTable(
              TableIdentifier.of("s", "empty"), SCHEMA, PartitionSpec.unpartitioned());
          TableRows.append(table, TableRows.row(table, Map.of("id", 1L)));
          first = table.currentSnapshot().snapshotId();
          table
              .newAppend()
              .appendFile(TableRows.write(table, TableRows.row(table, Map.of("id", 2L))))
              .set("floe.run-id", "r2")
              .set("floe.job", "daily")
              .set("floe.slice", "d=[2026-10-02,2026-10-03)")
              .commit();
          second = table.currentSnapshot().snapshotId();
        });
  }

  @Test
  void tagWithRetainThenListThenUntag() throws Exception {
    CliRun dryRun = floe(home, "tag", "s.t", "month-end", "--retain", "P30D", "--dry-run");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out()).contains("would tag s.t snapshot " + second + " as month-end");
    assertThat(ref("month-end")).isNull();

    CliRun tag = floe(home, "tag", "s.t", "month-end", "--retain", "P30D");
    CliRun old = floe(home, "tag", "s.t", "first", "--snapshot", "" + first, "--json");
    assertThat(tag.exitCode()).as(tag.err()).isZero();
    assertThat(tag.out()).contains("tagged s.t snapshot " + second + " as month-end");
    assertThat(ref("month-end").isTag()).isTrue();
    assertThat(ref("month-end").maxRefAgeMs()).isEqualTo(Duration.ofDays(30).toMillis());
    assertThat(old.exitCode()).as(old.err()).isZero();
    assertThat(JSON.readTree(old.out()).get("snapshot_id").asLong()).isEqualTo(first);
    assertThat(ref("first").snapshotId()).isEqualTo(first);
    assertThat(ref("first").maxRefAgeMs()).isNull();

    CliRun list = floe(home, "tags", "s.t", "--json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    JsonNode refs = JSON.readTree(list.out());
    assertThat(refs).hasSize(3);
    assertThat(refs.get(0).get("name").asText()).isEqualTo("main");
    JsonNode monthEnd = refs.get(2);
    assertThat(monthEnd.get("name").asText()).isEqualTo("month-end");
    assertThat(monthEnd.get("kind").asText()).isEqualTo("tag");
    assertThat(monthEnd.get("max_ref_age").asText()).isEqualTo("P30D");
    assertThat(monthEnd.get("run_id").asText()).isEqualTo("r2");
    assertThat(monthEnd.get("job").asText()).isEqualTo("daily");

    CliRun untagDry = floe(home, "untag", "s.t", "month-end", "--dry-run");
    assertThat(untagDry.exitCode()).isZero();
    assertThat(ref("month-end")).isNotNull();
    CliRun untag = floe(home, "untag", "s.t", "month-end");
    assertThat(untag.exitCode()).as(untag.err()).isZero();
    assertThat(untag.out()).contains("removed tag month-end from s.t; snapshot " + second);
    assertThat(ref("month-end")).isNull();
    CliRun again = floe(home, "untag", "s.t", "month-end", "--json");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(JSON.readTree(again.out()).get("action").asText()).isEqualTo("already-removed");
  }

  @Test
  void aTagWithoutRetainOnATableWithAMaxRefAgeSaysWhenExpiryMayDropIt() throws Exception {
    withCatalog(
        catalog ->
            Catalogs.loadTable(catalog, "s.t")
                .updateProperties()
                .set("history.expire.max-ref-age-ms", String.valueOf(Duration.ofDays(7).toMillis()))
                .commit());

    CliRun tag = floe(home, "tag", "s.t", "month-end");
    CliRun again = floe(home, "tag", "s.t", "month-end");
    CliRun list = floe(home, "tags", "s.t", "--json");

    assertThat(tag.exitCode()).as(tag.err()).isZero();
    assertThat(tag.out())
        .contains("tagged s.t snapshot " + second + " as month-end (expiry may drop the tag after")
        .doesNotContain("kept until");
    assertThat(ref("month-end").maxRefAgeMs()).isNull(); // the table's age applies, not its own
    assertThat(again.out())
        .contains("is already tagged month-end (expiry may drop the tag after")
        .contains("nothing to do (no-op)");
    assertThat(JSON.readTree(list.out()).get(1).get("max_ref_age").asText()).isEqualTo("P7D");

    withCatalog(
        catalog ->
            Catalogs.loadTable(catalog, "s.t")
                .updateProperties()
                .set("history.expire.max-ref-age-ms", "a week")
                .commit());
    CliRun unreadable = floe(home, "tags", "s.t");
    assertThat(unreadable.exitCode()).isEqualTo(2);
    assertThat(unreadable.err())
        .contains("Cannot read table property history.expire.max-ref-age-ms=a week");
  }

  @Test
  void theListMarksRollbackTagsAndAuditBranches() throws Exception {
    assertThat(floe(home, "rollback", "s.t", "--to-snapshot", "" + first).exitCode()).isZero();
    withCatalog(
        catalog ->
            Catalogs.loadTable(catalog, "s.t")
                .manageSnapshots()
                .createBranch("audit-r7", second)
                .commit());

    CliRun text = floe(home, "tags", "s.t");
    JsonNode json = JSON.readTree(floe(home, "tags", "s.t", "--json").out());

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("audit-r7", "audit branch: floe publish or floe discard")
        .contains("floe-before-rollback-1", "rollback tag: roll back to it to undo");
    assertThat(json.get(1).get("role").asText()).isEqualTo("audit");
    assertThat(json.get(1).get("kind").asText()).isEqualTo("branch");
    assertThat(json.get(1).get("run_id").asText()).isEqualTo("r2");
    assertThat(json.get(2).get("role").asText()).isEqualTo("rollback");
    assertThat(json.get(2).get("snapshot_id").asLong()).isEqualTo(second);
  }

  @Test
  void eachRefusalIsAUsageErrorThatSaysWhy() {
    floe(home, "tag", "s.t", "keep", "--snapshot", "" + first);
    withCatalog(
        catalog ->
            Catalogs.loadTable(catalog, "s.t")
                .manageSnapshots()
                .createBranch("audit-r1", first)
                .commit());

    assertRefused(
        floe(home, "tag", "s.t", "keep"), "a tag named keep already points at snapshot " + first);
    assertRefused(floe(home, "tag", "s.t", "main"), "main is the table's main branch");
    assertRefused(floe(home, "tag", "s.t", "audit-x"), "reserved for write-audit-publish");
    assertRefused(
        floe(home, "tag", "s.t", "x", "--snapshot", "42"), "at snapshot 42: no such snapshot");
    assertRefused(floe(home, "tag", "s.empty", "x"), "the table has no snapshots yet");
    assertRefused(
        floe(home, "tag", "s.t", "x", "--retain", "1 month"), "Cannot parse --retain '1 month'");
    assertRefused(floe(home, "untag", "s.t", "nope"), "no tag named nope");
    assertRefused(floe(home, "untag", "s.t", "main"), "main is the table's main branch, not a tag");
    assertRefused(floe(home, "untag", "s.t", "audit-r1"), "use `floe discard`");
    assertThat(ref("keep").snapshotId()).isEqualTo(first);
    assertThat(ref("audit-r1")).isNotNull();
  }

  @Test
  void aRefusalsHintPastedIntoAShellNamesTheTagWhole() {
    CliRun tag = floe(home, "tag", "s.t", "q4 close; echo $HOME", "--snapshot", "" + first);
    CliRun again = floe(home, "tag", "s.t", "q4 close; echo $HOME", "--retain", "P30D");

    assertThat(tag.exitCode()).as(tag.err()).isZero();
    assertRefused(again, "(remove it first with `floe untag s.t 'q4 close; echo $HOME'`)");
    String hint = again.err().substring(again.err().indexOf("`floe untag") + 1);
    assertThat(PastedCommand.words(hint.substring(0, hint.indexOf('`'))))
        .containsExactly("floe", "untag", "s.t", "q4 close; echo $HOME");
    assertThat(ref("q4 close; echo $HOME").snapshotId()).isEqualTo(first);
  }

  private static void assertRefused(CliRun run, String message) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains(message);
  }

  private SnapshotRef ref(String name) {
    SnapshotRef[] ref = new SnapshotRef[1];
    withCatalog(catalog -> ref[0] = Catalogs.loadTable(catalog, "s.t").refs().get(name));
    return ref[0];
  }

  private void withCatalog(Consumer<Catalog> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      action.accept(catalog);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
