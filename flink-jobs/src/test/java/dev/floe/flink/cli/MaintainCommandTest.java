package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe maintain` as an operator types it, on the embedded catalog (no Flink job). */
class MaintainCommandTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  private long first;
  private String replaced;

  /**
   * s.t: five snapshots (days 1 and 2, an overwrite replacing day 1's file, days 3 and 4) with the
   * retention `floe tables apply` writes for keep_last 2; s.plain: one snapshot, no retention.
   */
  @BeforeEach
  void tables() {
    withTable(
        null,
        ignored -> {
          Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
          try {
            ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
            PartitionSpec byDay = PartitionSpec.builderFor(SCHEMA).identity("d").build();
            Table table = catalog.createTable(TableIdentifier.of("s", "t"), SCHEMA, byDay);
            DataFile day1 = TableRows.write(table, row(table, 1, "2026-10-01"));
            replaced = day1.location();
            table.newAppend().appendFile(day1).commit();
            first = table.currentSnapshot().snapshotId();
            TableRows.append(table, row(table, 2, "2026-10-02"));
            table
                .newOverwrite()
                .deleteFile(day1)
                .addFile(TableRows.write(table, row(table, 10, "2026-10-01")))
                .commit();
            TableRows.append(table, row(table, 3, "2026-10-03"));
            TableRows.append(table, row(table, 4, "2026-10-04"));
            table.updateProperties().set(FloeTableProperties.RETENTION_KEEP_LAST, "2").commit();
            Table plain = catalog.createTable(TableIdentifier.of("s", "plain"), SCHEMA, byDay);
            TableRows.append(plain, row(plain, 1, "2026-10-01"));
          } finally {
            Catalogs.close(catalog);
          }
          return null;
        });
  }

  @Test
  void withoutAnActionOrARetentionOrWithATooYoungMinimumAgeItIsAUsageError() {
    String plainMetadata = withTable("s.plain", MaintainCommandTest::metadataLocation);

    CliRun none = floe(home, "maintain", "s.t");
    CliRun noRetention = floe(home, "maintain", "s.plain", "--rewrite-manifests", "--expire");
    CliRun young = floe(home, "maintain", "s.t", "--orphans", "--orphan-min-age", "PT30M");
    CliRun minAgeAlone = floe(home, "maintain", "s.t", "--orphan-min-age", "PT2H", "--expire");

    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.err())
        .contains(
            "Cannot maintain s.t: name at least one action: --compact, --rewrite-position-deletes,"
                + " --rewrite-manifests,"
                + " --expire, --orphans (or --plan, --apply)\n");
    assertThat(noRetention.exitCode()).isEqualTo(2);
    assertThat(noRetention.err())
        .contains("the table has no retention", "retention: {keep_last: 20, max_age: P7D}");
    // The refused expiry was checked before the manifest rewrite could commit.
    assertThat(withTable("s.plain", MaintainCommandTest::metadataLocation))
        .isEqualTo(plainMetadata);
    assertThat(young.exitCode()).isEqualTo(2);
    assertThat(young.err()).contains("minimum age of PT30M: it must be at least PT1H");
    assertThat(minAgeAlone.exitCode()).isEqualTo(2);
    assertThat(minAgeAlone.err()).contains("Cannot use --orphan-min-age without --orphans");
  }

  @Test
  void expireDryRunPredictsThenTheRunExpiresAndKeepsATaggedSnapshot() throws Exception {
    assertThat(floe(home, "tag", "s.t", "keep", "--snapshot", "" + first).exitCode()).isZero();
    String metadata = withTable("s.t", MaintainCommandTest::metadataLocation);
    ContentHash content = withTable("s.t", TableContent::hash);
    ContentHash atTag = withTable("s.t", t -> hashAt(t, first));

    CliRun dryRun = floe(home, "maintain", "s.t", "--expire", "--dry-run", "--json");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    String afterDryRun = withTable("s.t", MaintainCommandTest::metadataLocation);
    assertThat(afterDryRun).isEqualTo(metadata);
    JsonNode planned = JSON.readTree(dryRun.out()).get("actions").get(0);
    assertThat(planned.get("action").asText()).isEqualTo("expire");
    assertThat(planned.get("before").get("snapshots").asInt()).isEqualTo(5);
    assertThat(planned.get("after").get("snapshots").asInt()).isEqualTo(3);
    assertThat(planned.get("after_is_prediction").asBoolean()).isTrue();
    assertThat(planned.get("expired_snapshots")).hasSize(2);

    CliRun run = floe(home, "maintain", "s.t", "--expire");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("expired 2 snapshots, keeping 3:", "metadata size");
    int snapshots = withTable("s.t", t -> count(t.snapshots()));
    boolean tagged = withTable("s.t", t -> t.snapshot(first) != null);
    ContentHash after = withTable("s.t", TableContent::hash);
    ContentHash afterAtTag = withTable("s.t", t -> hashAt(t, first));
    assertThat(snapshots).isEqualTo(3);
    assertThat(tagged).isTrue();
    assertThat(after).isEqualTo(content);
    assertThat(afterAtTag).isEqualTo(atTag);
    // The tagged snapshot still reads the file the overwrite replaced.
    assertThat(path(replaced)).exists();
    Set<Path> stillReferenced = withTable("s.t", MaintainCommandTest::referencedFiles);
    assertThat(stillReferenced).allMatch(Files::exists);
  }

  @Test
  void orphansOlderThanTheMinimumAgeGoAndEverythingReferencedStays() throws Exception {
    Path old = path(withTable("s.t", t -> TableRows.write(t, row(t, 7, "2026-10-07")).location()));
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
    Path young =
        path(withTable("s.t", t -> TableRows.write(t, row(t, 8, "2026-10-08")).location()));
    Set<Path> referenced = withTable("s.t", MaintainCommandTest::referencedFiles);
    ContentHash content = withTable("s.t", TableContent::hash);

    CliRun dryRun =
        floe(home, "maintain", "s.t", "--orphans", "--orphan-min-age", "PT1H", "--dry-run");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out()).contains("would delete 1 orphan file", old.getFileName().toString());
    assertThat(old).exists();

    CliRun run = floe(home, "maintain", "s.t", "--orphans", "--orphan-min-age", "PT1H", "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode deleted = JSON.readTree(run.out()).get("actions").get(0).get("deleted");
    assertThat(deleted).hasSize(1);
    assertThat(path(deleted.get(0).get("path").asText())).isEqualTo(old);
    assertThat(deleted.get(0).get("size_bytes").asLong()).isPositive();
    assertThat(old).doesNotExist();
    assertThat(young).exists();
    assertThat(referenced).allMatch(Files::exists);
    ContentHash after = withTable("s.t", TableContent::hash);
    assertThat(after).isEqualTo(content);
  }

  @Test
  void anActionRefusedAfterAnEarlierOneCommittedStillReportsWhatTheEarlierOneDid()
      throws Exception {
    // Another table's metadata under the location: the orphan removal refuses when it lists.
    Path stray = path(withTable("s.t", t -> t.location() + "/data/stray.metadata.json"));
    Files.writeString(stray, "{}");
    Files.setLastModifiedTime(stray, FileTime.from(Instant.now().minus(Duration.ofDays(5))));
    int snapshotsBefore = withTable("s.t", t -> count(t.snapshots()));

    CliRun run =
        floe(
            home,
            "maintain",
            "s.t",
            "--rewrite-manifests",
            "--orphans",
            "--orphan-min-age",
            "PT1H",
            "--json");
    CliRun text =
        floe(
            home,
            "maintain",
            "s.t",
            "--rewrite-manifests",
            "--orphans",
            "--orphan-min-age",
            "PT1H");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot remove orphan files");
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("exit_code").asInt()).isEqualTo(2);
    assertThat(json.get("failed_action").asText()).isEqualTo("orphans");
    assertThat(json.get("error").asText()).contains("Cannot remove orphan files");
    assertThat(json.get("actions"))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.get("action").asText()).isEqualTo("rewrite-manifests");
              assertThat(a.get("changed").asBoolean()).isTrue();
            });
    // The manifest rewrite committed, as reported.
    int snapshotsAfter = withTable("s.t", t -> count(t.snapshots()));
    // The first run's rewrite committed; the second found one manifest, nothing to rewrite.
    assertThat(snapshotsAfter).isEqualTo(snapshotsBefore + 1);
    assertThat(stray).exists();
    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.out())
        .contains("rewrite-manifests", "orphans\n  failed (exit 2; the actions above were done)");
  }

  @Test
  void compactionWithoutSlicesPicksThemByTheTargetFileSizeOfTheCommandLine() {
    withTable(
        "s.t",
        t -> {
          for (int i = 0; i < 6; i++) {
            TableRows.append(t, row(t, 100 + i, "2026-10-05"));
          }
          t.updateProperties().set("floe.maintain.target-file-size-bytes", "100").commit();
          return null;
        });

    CliRun byTable = floe(home, "maintain", "s.t", "--compact", "--dry-run");
    CliRun byFlag =
        floe(home, "maintain", "s.t", "--compact", "--target-file-size", "100000000", "--dry-run");

    // No file is below the table's 100 bytes; all six are below the flag's 100 MB.
    assertThat(byTable.exitCode()).as(byTable.err()).isZero();
    assertThat(byTable.out()).contains("no slice of s.t needs compaction");
    assertThat(byFlag.exitCode()).as(byFlag.err()).isZero();
    assertThat(byFlag.out()).contains("2026-10-05", "would compact", "files 6 -> 1");
  }

  @Test
  void allThreeActionsReportNumbersThatMatchTheTable() throws Exception {
    int manifestsBefore = withTable("s.t", t -> t.currentSnapshot().allManifests(t.io()).size());
    int snapshotsBefore = withTable("s.t", t -> count(t.snapshots()));
    CliRun run =
        floe(home, "maintain", "s.t", "--rewrite-manifests", "--expire", "--orphans", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode actions = JSON.readTree(run.out()).get("actions");
    assertThat(actions)
        .extracting(a -> a.get("action").asText())
        .containsExactly("rewrite-manifests", "expire", "orphans");
    JsonNode rewrite = actions.get(0);
    assertThat(rewrite.get("before").get("manifests").asInt()).isEqualTo(manifestsBefore);
    assertThat(rewrite.get("after").get("manifests").asInt()).isEqualTo(1);
    assertThat(rewrite.get("after").get("snapshots").asInt()).isEqualTo(snapshotsBefore + 1);
    JsonNode last = actions.get(2).get("after");
    int snapshots = withTable("s.t", t -> count(t.snapshots()));
    assertThat(last.get("snapshots").asInt()).isEqualTo(snapshots).isEqualTo(2);
    Set<Path> data = withTable("s.t", t -> dataFiles(t, t.currentSnapshot().snapshotId()));
    long bytes = data.stream().mapToLong(MaintainCommandTest::size).sum();
    assertThat(last.get("data_files").asLong()).isEqualTo(data.size()).isEqualTo(4);
    assertThat(last.get("data_bytes").asLong()).isEqualTo(bytes);
    assertThat(last.get("avg_data_file_bytes").asLong()).isEqualTo(bytes / 4);
    assertThat(last.get("manifests").asInt()).isEqualTo(1);
    Set<Path> stillReferenced = withTable("s.t", MaintainCommandTest::referencedFiles);
    assertThat(stillReferenced).allMatch(Files::exists);
  }

  @Test
  void aRerunOfTheManifestRewriteOnTwoPartitionSpecsIsANoOp() throws Exception {
    withTable(
        "s.t",
        t -> {
          t.updateSpec().removeField("d").addField(Expressions.month("d")).commit();
          TableRows.append(t, row(t, 5, "2026-11-01"));
          TableRows.append(t, row(t, 6, "2026-12-01"));
          return null;
        });
    CliRun first = floe(home, "maintain", "s.t", "--rewrite-manifests");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).contains("rewrote 3 data manifests", "into 2 (target");
    String metadata = withTable("s.t", MaintainCommandTest::metadataLocation);
    long head = withTable("s.t", t -> t.currentSnapshot().snapshotId());

    CliRun dryRun = floe(home, "maintain", "s.t", "--rewrite-manifests", "--dry-run", "--json");
    CliRun rerun = floe(home, "maintain", "s.t", "--rewrite-manifests", "--json");
    CliRun text = floe(home, "maintain", "s.t", "--rewrite-manifests");

    for (CliRun run : new CliRun[] {dryRun, rerun}) {
      assertThat(run.exitCode()).as(run.err()).isZero();
      JsonNode action = JSON.readTree(run.out()).get("actions").get(0);
      assertThat(action.get("no_op").asBoolean()).as(run.out()).isTrue();
      assertThat(action.get("already_grouped").asBoolean()).isTrue();
      assertThat(action.get("changed").asBoolean()).isFalse();
      assertThat(action.get("data_manifests_before").asInt()).isEqualTo(2);
      assertThat(action.get("after")).isEqualTo(action.get("before"));
    }
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("nothing to rewrite: 2 data manifests (", "already clustered by partition");
    assertThat(withTable("s.t", MaintainCommandTest::metadataLocation)).isEqualTo(metadata);
    long headAfter = withTable("s.t", t -> t.currentSnapshot().snapshotId());
    assertThat(headAfter).isEqualTo(head);
  }

  private <T> T withTable(String name, Function<Table, T> action) {
    if (name == null) {
      return action.apply(null);
    }
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, name));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  /** Manifest lists, manifests and data files of every snapshot, and the metadata.json files. */
  private static Set<Path> referencedFiles(Table table) {
    Set<Path> files = new HashSet<>();
    var metadata = ((HasTableOperations) table).operations().current();
    files.add(path(metadata.metadataFileLocation()));
    metadata.previousFiles().forEach(e -> files.add(path(e.file())));
    for (Snapshot snapshot : table.snapshots()) {
      files.add(path(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        files.add(path(manifest.path()));
      }
      files.addAll(dataFiles(table, snapshot.snapshotId()));
    }
    return files;
  }

  private static Set<Path> dataFiles(Table table, long snapshotId) {
    Set<Path> files = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      tasks.forEach(task -> files.add(path(task.file().location())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static ContentHash hashAt(Table table, long snapshotId) {
    ContentHash hash = ContentHash.empty();
    var hasher = new dev.floe.catalog.lineage.RecordHasher(table.schema());
    try (var records =
        org.apache.iceberg.data.IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      records.forEach(r -> hasher.add(r, hash));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return hash;
  }

  private static int count(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }

  private static Path path(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static org.apache.iceberg.data.Record row(Table table, long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
