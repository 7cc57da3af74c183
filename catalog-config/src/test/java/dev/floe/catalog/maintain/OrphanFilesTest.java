package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Tag;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Orphan removal on a table with history, a tag, a branch, rewritten manifests, a statistics file
 * and expired metadata.json files: it deletes exactly the old unreferenced files, and every file
 * any snapshot, ref or metadata file references (computed here by scanning) survives.
 */
class OrphanFilesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private Set<Path> oldOrphans;
  private Set<Path> youngOrphans;
  private Instant now;

  @BeforeEach
  void aTableWithHistoryAndOrphans() throws IOException {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    // Keep only two old metadata.json files in the log: the older ones become orphans.
    table.updateProperties().set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "2").commit();
    DataFile replaced = TableRows.write(table, row(1, "2026-10-01"));
    table.newAppend().appendFile(replaced).commit();
    long first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(2, "2026-10-02"));
    long second = table.currentSnapshot().snapshotId();
    table
        .newOverwrite()
        .deleteFile(replaced)
        .addFile(TableRows.write(table, row(10, "2026-10-01")))
        .commit();
    TableRows.append(table, row(3, "2026-10-03"));
    Tag.of(table, "s.t", "first").snapshot(first).commit();
    table.manageSnapshots().createBranch("dev", second).commit();
    table
        .newAppend()
        .appendFile(TableRows.write(table, row(5, "2026-10-05")))
        .toBranch("dev")
        .commit();
    table.refresh();
    ManifestRewrite.of(table, "s.t").commit();
    Path statistics = TableFiles.path(table.location()).resolve("metadata/stats-1.puffin");
    Files.writeString(statistics, "not really puffin");
    table
        .updateStatistics()
        .setStatistics(
            new GenericStatisticsFile(
                table.currentSnapshot().snapshotId(),
                statistics.toUri().toString(),
                Files.size(statistics),
                0,
                List.of()))
        .commit();
    table.refresh();

    Path location = TableFiles.path(table.location());
    Set<Path> written = new HashSet<>();
    written.add(TableFiles.path(TableRows.write(table, row(7, "2026-10-07")).location()));
    written.add(TableFiles.path(TableRows.write(table, row(8, "2026-10-01")).location()));
    written.add(write(location.resolve("metadata/stray-manifest.avro")));
    written.add(write(location.resolve("data/_tmp/part-0.parquet")));
    // Everything so far is ten days old: only references protect the table's files.
    now = Instant.now();
    for (Path file : TableFiles.onDisk(table)) {
      Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
    }
    Set<Path> unreferenced = new HashSet<>(TableFiles.onDisk(table));
    unreferenced.removeAll(TableFiles.referenced(table));
    oldOrphans = unreferenced;
    assertThat(oldOrphans).containsAll(written);
    assertThat(oldOrphans).anyMatch(p -> p.toString().endsWith(".metadata.json"));

    youngOrphans = new HashSet<>();
    youngOrphans.add(TableFiles.path(TableRows.write(table, row(9, "2026-10-09")).location()));
    youngOrphans.add(write(location.resolve("metadata/young.avro")));
  }

  @Test
  void removesOldOrphansAndKeepsEveryReferencedFileAndYoungOrphans() {
    Set<Path> referenced = TableFiles.referenced(table);
    Set<Path> before = TableFiles.onDisk(table);
    ContentHash content = TableContent.hash(table);

    OrphanFilesPlan plan = orphans().commit();
    table.refresh();

    assertThat(paths(plan.orphans())).isEqualTo(oldOrphans);
    assertThat(paths(plan.youngOrphans())).isEqualTo(youngOrphans);
    assertThat(referenced).allMatch(Files::exists);
    assertThat(TableFiles.referenced(table)).isEqualTo(referenced);
    assertThat(oldOrphans).noneMatch(Files::exists);
    assertThat(youngOrphans).allMatch(Files::exists);
    Set<Path> expected = new HashSet<>(before);
    expected.removeAll(oldOrphans);
    assertThat(TableFiles.onDisk(table)).isEqualTo(expected);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(TableFiles.hashAt(table, table.refs().get("first").snapshotId()).rows())
        .isEqualTo(1);
    assertThat(TableFiles.hashAt(table, table.refs().get("dev").snapshotId()).rows()).isEqualTo(3);
  }

  @Test
  void aDryRunListsPathSizeAndAgeAndDeletesNothing() {
    Set<Path> before = TableFiles.onDisk(table);

    MaintenanceReport report = orphans().run(true);

    OrphanFilesPlan plan = (OrphanFilesPlan) report.outcome();
    assertThat(TableFiles.onDisk(table)).isEqualTo(before);
    assertThat(paths(plan.orphans())).isEqualTo(oldOrphans);
    long bytes = oldOrphans.stream().mapToLong(OrphanFilesTest::size).sum();
    assertThat(plan.orphanBytes()).isEqualTo(bytes);
    assertThat(plan.orphans()).allMatch(o -> o.age().compareTo(Duration.ofDays(10)) >= 0);
    assertThat(plan.lines())
        .anyMatch(line -> line.startsWith("would delete " + oldOrphans.size() + " orphan files"));
    assertThat(report.after()).isEqualTo(report.before());
  }

  @Test
  void theMinimumAgeComesFromTheTableAndIsNeverUnderAnHour() {
    table.updateProperties().set(OrphanFiles.MIN_AGE_PROPERTY, "P20D").commit();
    table.refresh();

    OrphanFilesPlan plan = orphans().apply();

    assertThat(plan.minAge()).isEqualTo(Duration.ofDays(20));
    assertThat(plan.orphans()).isEmpty();
    // Setting the property wrote a metadata.json and pushed an old one out of the log.
    Set<Path> unreferenced = new HashSet<>(TableFiles.onDisk(table));
    unreferenced.removeAll(TableFiles.referenced(table));
    assertThat(paths(plan.youngOrphans())).isEqualTo(unreferenced).containsAll(oldOrphans);
    assertThatThrownBy(() -> orphans().minAge(Duration.ofMinutes(59)).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("with a minimum age of PT59M: it must be at least PT1H")
        .hasMessageContaining("longer than the longest job");
    table.updateProperties().set(OrphanFiles.MIN_AGE_PROPERTY, "PT5M").commit();
    table.refresh();
    assertThatThrownBy(() -> orphans().apply()).hasMessageContaining("minimum age of PT5M");
  }

  @Test
  void anotherTableUnderTheLocationStopsIt() {
    Table nested =
        catalog.create("s.t.inner", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    assertThat(FileLocations.isUnder(nested.location(), table.location())).isTrue();

    assertThatThrownBy(() -> orphans().commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("looks like another table's metadata");
    assertThat(oldOrphans).allMatch(Files::exists);
  }

  @Test
  void aTableInsideTheMetadataFolderStopsIt() throws IOException {
    // Namespace s.t, table "metadata": its location is the metadata folder of s.t.
    Table nested =
        catalog.create(
            "s.t.metadata", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(nested, row(42, "2026-10-01"));
    Set<Path> nestedFiles = TableFiles.onDisk(nested);
    for (Path file : nestedFiles) {
      Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
    }

    assertThatThrownBy(() -> orphans().commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("looks like another table's metadata");
    assertThat(nestedFiles).isNotEmpty().allMatch(Files::exists);
    assertThat(oldOrphans).allMatch(Files::exists);
  }

  @Test
  void aTableInsideAnotherTablesDataFolderKeepsThatTablesFiles() throws IOException {
    // Namespace s.t, table "data": its location is the data folder of s.t, whose data files
    // nothing of the nested table references.
    Table nested =
        catalog.create("s.t.data", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(nested, row(42, "2026-10-01"));
    for (Path file : TableFiles.onDisk(table)) {
      Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
    }
    Set<Path> parentData = new HashSet<>(TableFiles.referenced(table));
    parentData.removeIf(p -> !p.toString().endsWith(".parquet"));

    OrphanFiles nestedOrphans =
        OrphanFiles.of(nested, "s.t.data")
            .clock(Clock.fixed(now, ZoneOffset.UTC))
            .minAge(Duration.ofDays(3));
    assertThatThrownBy(nestedOrphans::commit)
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot remove orphan files of s.t.data: its location "
                + nested.location()
                + " lies inside the data folder of another table at ")
        .hasMessageContaining(
            "table-uuid " + ((HasTableOperations) table).operations().current().uuid());
    assertThatThrownBy(nestedOrphans::listing).isInstanceOf(InvalidInputException.class);
    assertThat(parentData).isNotEmpty().allMatch(Files::exists);
    assertThat(TableContent.hash(table).rows()).isPositive();
  }

  @Test
  void aTableRenamedAndAnotherCreatedUnderItsOldNameShareTheLocationAndStopIt() throws IOException {
    catalog.catalog().renameTable(TableIdentifier.parse("s.t"), TableIdentifier.parse("s.t_old"));
    Table old = catalog.load("s.t_old");
    Table again =
        catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(again, row(42, "2026-10-01"));
    assertThat(again.location()).isEqualTo(old.location());
    Set<Path> oldFiles = TableFiles.referenced(old);

    assertThatThrownBy(
            () ->
                OrphanFiles.of(again, "s.t")
                    .clock(Clock.fixed(now.plus(Duration.ofDays(10)), ZoneOffset.UTC))
                    .commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("looks like another table's metadata under its location")
        .hasMessageContaining(
            "table-uuid " + ((HasTableOperations) old).operations().current().uuid());
    assertThat(oldFiles).isNotEmpty().allMatch(Files::exists);
  }

  @Test
  void aListingOfTheFolderNextToTheLocationThatFailsOtherwiseStopsIt() throws IOException {
    Table nested =
        catalog.create("s.t.data", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    for (Path file : TableFiles.onDisk(table)) {
      Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
    }
    Set<Path> parentData = new HashSet<>(TableFiles.referenced(table));
    String parentMetadata = TableFiles.path(table.location()).resolve("metadata").toString();
    Table throttled =
        listingFails(
            nested,
            parentMetadata,
            new UncheckedIOException(new IOException("503 Slow Down (Status Code: 503)")));

    assertThatThrownBy(
            () ->
                OrphanFiles.of(throttled, "s.t.data")
                    .clock(Clock.fixed(now, ZoneOffset.UTC))
                    .minAge(Duration.ofDays(3))
                    .commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("cannot list")
        .hasMessageContaining("503 Slow Down");
    assertThat(parentData).isNotEmpty().allMatch(Files::exists);
  }

  @Test
  void aHalfWrittenMetadataFileInTheOwnFolderIsAnOrphanButOneThatCannotBeReadStopsIt()
      throws IOException {
    Path metadata = TableFiles.path(table.location()).resolve("metadata");
    Path half = write(metadata.resolve("00099-half.metadata.json"));
    Files.writeString(half, "{\"format-version\" : 2, \"table-");
    Files.setLastModifiedTime(half, FileTime.from(now.minus(Duration.ofDays(10))));

    assertThat(paths(orphans().apply().orphans())).contains(half);

    Table unreadable =
        failing(
            table,
            prefix -> null,
            path ->
                path.endsWith("00099-half.metadata.json")
                    ? new UncheckedIOException(new IOException("500 Internal Error"))
                    : null);
    assertThatThrownBy(
            () -> OrphanFiles.of(unreadable, "s.t").clock(Clock.fixed(now, ZoneOffset.UTC)).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("00099-half.metadata.json")
        .hasMessageContaining("cannot be read");
  }

  @Test
  void aFolderAboveTheLocationThatCannotBeListedSaysNothingAboutNesting() {
    String location = catalog.home().resolve("prod/data/warehouse/s/listed").toUri().toString();
    Table real =
        catalog
            .catalog()
            .buildTable(TableIdentifier.parse("s.listed"), SCHEMA)
            .withLocation(location)
            .create();
    TableRows.append(real, row(1, "2026-10-01"));
    String denied = catalog.home().resolve("prod/metadata").toUri().getPath();
    Table restricted =
        listingFails(
            real,
            denied,
            new UncheckedIOException(
                new java.nio.file.AccessDeniedException(denied + ": Access Denied (403)")));

    OrphanFilesPlan plan =
        OrphanFiles.of(restricted, "s.listed")
            .clock(Clock.fixed(now.plus(Duration.ofDays(10)), ZoneOffset.UTC))
            .apply();

    assertThat(plan.orphans()).isEmpty();
  }

  /** {@code table}, whose FileIO fails with {@code failure} to list anything under {@code path}. */
  private static Table listingFails(Table table, String deniedPath, RuntimeException failure) {
    return failing(
        table,
        prefix -> java.net.URI.create(prefix).getPath().startsWith(deniedPath) ? failure : null,
        path -> null);
  }

  /**
   * {@code table}, whose FileIO throws what {@code listFailure} makes of a listed prefix and {@code
   * readFailure} of a read location (null: it works).
   */
  private static Table failing(
      Table table,
      java.util.function.Function<String, RuntimeException> listFailure,
      java.util.function.Function<String, RuntimeException> readFailure) {
    org.apache.iceberg.TableOperations real = ((HasTableOperations) table).operations();
    SupportsPrefixOperations listing = (SupportsPrefixOperations) real.io();
    class DeniedIo implements org.apache.iceberg.io.FileIO, SupportsPrefixOperations {
      @Override
      public org.apache.iceberg.io.InputFile newInputFile(String path) {
        RuntimeException failure = readFailure.apply(path);
        if (failure != null) {
          throw failure;
        }
        return real.io().newInputFile(path);
      }

      @Override
      public org.apache.iceberg.io.OutputFile newOutputFile(String path) {
        return real.io().newOutputFile(path);
      }

      @Override
      public void deleteFile(String path) {
        real.io().deleteFile(path);
      }

      @Override
      public Iterable<org.apache.iceberg.io.FileInfo> listPrefix(String prefix) {
        RuntimeException failure = listFailure.apply(prefix);
        if (failure != null) {
          throw failure;
        }
        return listing.listPrefix(prefix);
      }

      @Override
      public void deletePrefix(String prefix) {
        listing.deletePrefix(prefix);
      }
    }
    DeniedIo io = new DeniedIo();
    org.apache.iceberg.TableOperations ops =
        new org.apache.iceberg.TableOperations() {
          @Override
          public org.apache.iceberg.TableMetadata current() {
            return real.current();
          }

          @Override
          public org.apache.iceberg.TableMetadata refresh() {
            return real.refresh();
          }

          @Override
          public void commit(
              org.apache.iceberg.TableMetadata base, org.apache.iceberg.TableMetadata metadata) {
            real.commit(base, metadata);
          }

          @Override
          public org.apache.iceberg.io.FileIO io() {
            return io;
          }

          @Override
          public String metadataFileLocation(String fileName) {
            return real.metadataFileLocation(fileName);
          }

          @Override
          public org.apache.iceberg.io.LocationProvider locationProvider() {
            return real.locationProvider();
          }
        };
    return new org.apache.iceberg.BaseTable(ops, table.name());
  }

  @Test
  void theTablesOwnOldMetadataInASubFolderOfItsMetadataFolderAreOrphansNotAnotherTable() {
    Table moved =
        catalog.create("s.moved", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    moved
        .updateProperties()
        .set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "1")
        .set(TableProperties.WRITE_METADATA_LOCATION, moved.location() + "/metadata/moved")
        .commit();
    for (int i = 0; i < 3; i++) {
      TableRows.append(moved, row(i, "2026-10-01"));
    }
    moved.updateProperties().remove(TableProperties.WRITE_METADATA_LOCATION).commit();
    for (int i = 0; i < 3; i++) {
      TableRows.append(moved, row(10 + i, "2026-10-02"));
    }

    OrphanFilesPlan plan =
        OrphanFiles.of(moved, "s.moved")
            .clock(Clock.fixed(Instant.now().plus(Duration.ofDays(10)), ZoneOffset.UTC))
            .apply();

    assertThat(plan.orphans())
        .extracting(OrphanFile::location)
        .anyMatch(l -> l.contains("/metadata/moved/") && l.endsWith(".metadata.json"));
  }

  @Test
  void anotherTableWithItsOwnMetadataFolderInsideThisTablesMetadataFolderStopsIt()
      throws IOException {
    Table other =
        catalog
            .catalog()
            .buildTable(org.apache.iceberg.catalog.TableIdentifier.parse("s.other"), SCHEMA)
            .withLocation(table.location() + "/metadata/other")
            .withProperty(
                TableProperties.WRITE_METADATA_LOCATION, table.location() + "/metadata/other/meta")
            .create();
    TableRows.append(other, row(42, "2026-10-01"));
    Set<Path> otherFiles = TableFiles.onDisk(other);
    for (Path file : otherFiles) {
      Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
    }

    assertThatThrownBy(() -> orphans().commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("looks like another table's metadata");
    assertThat(otherFiles).isNotEmpty().allMatch(Files::exists);
  }

  @Test
  void theTablesOwnOldMetadataBeforeItsMetadataFolderMovedAreOrphans() {
    Table moved =
        catalog.create("s.moved2", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    moved.updateProperties().set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "1").commit();
    for (int i = 0; i < 3; i++) {
      TableRows.append(moved, row(i, "2026-10-01"));
    }
    moved
        .updateProperties()
        .set(TableProperties.WRITE_METADATA_LOCATION, moved.location() + "/meta")
        .commit();
    for (int i = 0; i < 3; i++) {
      TableRows.append(moved, row(10 + i, "2026-10-02"));
    }

    OrphanFilesPlan plan =
        OrphanFiles.of(moved, "s.moved2")
            .clock(Clock.fixed(Instant.now().plus(Duration.ofDays(10)), ZoneOffset.UTC))
            .apply();

    assertThat(plan.orphans())
        .extracting(OrphanFile::location)
        .anyMatch(l -> l.contains("/s/moved2/metadata/") && l.endsWith(".metadata.json"));
  }

  @Test
  void aTableWithGcDisabledIsRefusedAndKeepsEveryFile() {
    table.updateProperties().set("gc.enabled", "false").commit();
    table.refresh();
    Set<Path> before = TableFiles.onDisk(table);

    assertThatThrownBy(() -> orphans().commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot remove orphan files of s.t: its property gc.enabled is false");
    assertThatThrownBy(() -> orphans().apply()).hasMessageContaining("gc.enabled is false");
    assertThat(TableFiles.onDisk(table)).isEqualTo(before);
  }

  private OrphanFiles orphans() {
    return OrphanFiles.of(table, "s.t").clock(Clock.fixed(now, ZoneOffset.UTC));
  }

  private static Set<Path> paths(List<OrphanFile> files) {
    return files.stream().map(f -> TableFiles.path(f.location())).collect(Collectors.toSet());
  }

  private static Path write(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "orphan " + file.getFileName());
    return file;
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
