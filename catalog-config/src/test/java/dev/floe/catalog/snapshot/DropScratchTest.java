package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.FileKind;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dropping a scratch branch on a real table leaves main's history and the table's files (all but
 * metadata.json versions) exactly as they were before the scratch commit.
 */
class DropScratchTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));
  private static final String BRANCH = "scratch-r1";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private List<Long> snapshotsBefore;
  private long mainBefore;
  private ContentHash contentBefore;
  private Set<Path> filesBefore;

  /** Main: day 1 and day 2; then a scratch run replaces day 2 on its branch with a new file. */
  @BeforeEach
  void mainAndAScratchCommit() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(table, row(1, "2026-10-01"));
    TableRows.append(table, row(2, "2026-10-02"), row(3, "2026-10-02"));
    snapshotsBefore = snapshotIds();
    mainBefore = table.currentSnapshot().snapshotId();
    contentBefore = TableContent.hash(table);
    filesBefore = filesOnDisk();

    DataFile scratchFile = TableRows.write(table, row(4, "2026-10-02"));
    table
        .newOverwrite()
        .overwriteByRowFilter(Expressions.equal("d", day("2026-10-02")))
        .addFile(scratchFile)
        .toBranch(BRANCH)
        .commit();
    table.refresh();
  }

  @Test
  void theDryRunNamesTheSnapshotAndOnlyTheFilesItAddedAndChangesNothing() {
    long scratch = table.refs().get(BRANCH).snapshotId();

    DropScratchPlan plan = DropScratch.of(table, "s.t").branch(BRANCH).apply();

    table.refresh();
    assertThat(plan.snapshotId()).isEqualTo(scratch);
    assertThat(plan.expiresSnapshot()).isTrue();
    assertThat(plan.deleted()).isEmpty();
    // One data file, its manifest (plus the manifest of the deletes), one manifest list: all new.
    assertThat(plan.files().values())
        .contains(FileKind.DATA, FileKind.MANIFEST, FileKind.MANIFEST_LIST)
        .filteredOn(kind -> kind == FileKind.DATA)
        .hasSize(1);
    assertThat(plan.files().keySet()).noneMatch(location -> wasThereBefore(location));
    assertThat(table.refs()).containsKey(BRANCH);
    assertThat(snapshotIds()).contains(scratch);
  }

  @Test
  void droppingRemovesTheBranchItsSnapshotAndItsFilesAndNothingElse() {
    long scratch = table.refs().get(BRANCH).snapshotId();
    assertThat(filesOnDisk()).isNotEqualTo(filesBefore).containsAll(filesBefore);

    DropScratchPlan dropped = DropScratch.of(table, "s.t").branch(BRANCH).commit();

    table.refresh();
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(snapshotIds()).containsExactlyElementsOf(snapshotsBefore).doesNotContain(scratch);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(TableContent.hash(table)).isEqualTo(contentBefore);
    assertThat(filesOnDisk()).isEqualTo(filesBefore);
    assertThat(dropped.deleted()).hasSameSizeAs(dropped.files().keySet());
  }

  @Test
  void filesOfAnotherScratchSnapshotGoneFromDiskDoNotKeepTheBranchOrFailTheDrop() {
    // Another verify's scratch snapshot whose files its own drop deleted: reading them fails.
    table
        .newOverwrite()
        .overwriteByRowFilter(Expressions.equal("d", day("2026-10-01")))
        .addFile(TableRows.write(table, row(5, "2026-10-01")))
        .toBranch("scratch-r2")
        .commit();
    table.refresh();
    String otherList =
        table.snapshot(table.refs().get("scratch-r2").snapshotId()).manifestListLocation();
    table.io().deleteFile(otherList);
    String ours = table.snapshot(table.refs().get(BRANCH).snapshotId()).manifestListLocation();

    DropScratchPlan dropped = DropScratch.of(table, "s.t").branch(BRANCH).commit();

    table.refresh();
    assertThat(table.refs()).containsOnlyKeys("main", "scratch-r2");
    assertThat(dropped.deleted()).isEmpty();
    assertThat(filesOnDisk())
        .as("left for orphan cleanup")
        .contains(Path.of(java.net.URI.create(ours)));
  }

  @Test
  void aDiscardOfTheRunRacingAnotherDropOfItsScratchBranchFindsItsGoalReached() {
    Table stale = catalog.load("s.t");
    DropScratch.of(table, "s.t").branch(BRANCH).commit();

    DiscardPlan second = Discard.of(stale, "s.t").run("r1").commit();

    assertThat(second.role()).isEqualTo(DiscardPlan.Role.NOTHING_LEFT);
    table.refresh();
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(filesOnDisk()).isEqualTo(filesBefore);
  }

  @Test
  void aDiscardWhoseOwnFileDeletionFailsReportsTheFailureRatherThanNothingLeft() {
    Table failing =
        InterceptedTable.deletesFail(
            table, path -> new UncheckedIOException(new IOException("storage down: " + path)));

    assertThatThrownBy(() -> Discard.of(failing, "s.t").run("r1").commit())
        .hasMessageContaining("storage down");
  }

  @Test
  void aSnapshotAnotherRefStillUsesStaysWithItsFilesOnlyTheBranchGoes() {
    long scratch = table.refs().get(BRANCH).snapshotId();
    table.manageSnapshots().createTag("keep", scratch).commit();
    table.refresh();
    Set<Path> filesWithScratch = filesOnDisk();

    DropScratchPlan dropped = DropScratch.of(table, "s.t").branch(BRANCH).commit();

    table.refresh();
    assertThat(dropped.expiresSnapshot()).isFalse();
    assertThat(dropped.deleted()).isEmpty();
    assertThat(table.refs()).containsOnlyKeys("main", "keep");
    assertThat(snapshotIds()).contains(scratch);
    assertThat(filesOnDisk()).isEqualTo(filesWithScratch);
  }

  @Test
  void onlyAnExistingScratchBranchIsDropped() {
    table.manageSnapshots().createBranch("audit-r2", mainBefore).commit();
    table.refresh();

    assertThatThrownBy(() -> DropScratch.of(table, "s.t").branch("audit-r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot drop branch audit-r2 of s.t: only scratch branches");
    assertThatThrownBy(() -> DropScratch.of(table, "s.t").branch("scratch-nope").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot drop scratch branch scratch-nope of s.t: there is no such");
    table.refresh();
    assertThat(table.refs()).containsKeys("main", "audit-r2", BRANCH);
  }

  @Test
  void floeTagsMarksTheScratchBranchAndNoTagMayTakeItsName() {
    assertThat(Tags.list(table))
        .filteredOn(ref -> ref.name().equals(BRANCH))
        .extracting(RefEntry::role)
        .containsExactly(RefEntry.Role.SCRATCH);
    assertThatThrownBy(() -> Tag.of(table, "s.t", "scratch-x").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("reserved for the scratch branches of `floe verify`");
  }

  private boolean wasThereBefore(String location) {
    return filesBefore.contains(Path.of(java.net.URI.create(location)));
  }

  /** Every file under the table's location but the metadata.json versions every commit adds. */
  private Set<Path> filesOnDisk() {
    try (Stream<Path> walk = Files.walk(Path.of(java.net.URI.create(location())))) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .filter(p -> !p.getFileName().toString().endsWith(".metadata.json"))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String location() {
    String location = table.location();
    return location.startsWith("file:") ? location : "file://" + location;
  }

  private List<Long> snapshotIds() {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .toList();
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }

  private static int day(String day) {
    return (int) LocalDate.parse(day).toEpochDay();
  }
}
