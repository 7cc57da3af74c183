package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Tag;
import dev.floe.catalog.snapshot.Tags;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.collect.Iterables;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Snapshot expiry by the table's retention on a real table, with an injected clock: each limit on
 * its own and both together (a snapshot is kept while either keeps it), and never a tagged snapshot
 * or an audit branch, nor their files.
 */
class ExpireTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private final long[] ids = new long[5];
  private final long[] times = new long[5];
  private DataFile replaced;

  /**
   * Five snapshots a few milliseconds apart: appends of days 1 and 2, an overwrite that replaces
   * day 1's file (which then only the first two snapshots reference), then days 3 and 4.
   */
  @BeforeEach
  void fiveSnapshots() throws InterruptedException {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    replaced = TableRows.write(table, row(1, "2026-10-01"));
    table.newAppend().appendFile(replaced).commit();
    record(0);
    TableRows.append(table, row(2, "2026-10-02"));
    record(1);
    table
        .newOverwrite()
        .deleteFile(replaced)
        .addFile(TableRows.write(table, row(10, "2026-10-01")))
        .commit();
    record(2);
    TableRows.append(table, row(3, "2026-10-03"));
    record(3);
    TableRows.append(table, row(4, "2026-10-04"));
    record(4);
  }

  @Test
  void keepLastAloneKeepsTheNewestAndDeletesFilesOnlyExpiredSnapshotsUsed() {
    retention("2", null);
    ContentHash before = TableContent.hash(table);
    Set<Path> keptFiles = filesOf(3, 4);

    ExpirePlan plan = expire(clockAt(times[4])).commit();
    table.refresh();

    assertThat(plan.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[0], ids[1], ids[2]);
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[3], ids[4]);
    assertThat(plan.filesToDelete()).containsKey(FileLocations.normalise(replaced.location()));
    assertThat(Files.exists(TableFiles.path(replaced.location()))).isFalse();
    assertThat(plan.deletedFiles()).hasSize(plan.filesToDelete().size());
    for (String deleted : plan.filesToDelete().keySet()) {
      assertThat(TableFiles.path(deleted)).doesNotExist();
    }
    assertThat(keptFiles).allMatch(Files::exists);
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
    assertThat(TableContent.hash(table)).isEqualTo(before);
  }

  @Test
  void aFileAKeptSnapshotRemovedIsDeletedAsTheDryRunSaidAndTheReportCountsWhatWentByKind() {
    // The overwrite that removed day 1's first file is kept; only expired snapshots read that file.
    retention("3", null);
    ExpirePlan dryRun = expire(clockAt(times[4])).apply();
    assertThat(dryRun.filesToDelete()).containsKey(FileLocations.normalise(replaced.location()));

    ExpirePlan plan = expire(clockAt(times[4])).commit();

    assertThat(plan.filesToDelete()).isEqualTo(dryRun.filesToDelete());
    assertThat(plan.deletedFiles())
        .containsExactlyInAnyOrderElementsOf(dryRun.filesToDelete().keySet());
    assertThat(Files.exists(TableFiles.path(replaced.location()))).isFalse();
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
    assertThat(plan.lines())
        .contains(
            String.format(
                "deleted %d files (%s)",
                plan.deletedFiles().size(), ExpirePlan.kinds(dryRun.filesToDelete())));
  }

  @Test
  void aCommitLandingBetweenThePlanAndTheExpiryIsReportedAsExpiredAndItsFilesGo() {
    retention("2", null);
    Table other = catalog.load("s.t");
    // A run appends right before the expiry's commit: Iceberg then expires ids[3] as well.
    Table racing =
        InterceptedTable.beforeEachCommit(
            table,
            attempt -> {
              if (attempt == 0) {
                TableRows.append(other, row(5, "2026-10-05"));
              }
            });
    String fourthList = table.snapshot(ids[3]).manifestListLocation();

    ExpirePlan plan = Expire.of(racing, "s.t").clock(clockAt(times[4])).commit();

    table.refresh();
    assertThat(plan.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[0], ids[1], ids[2], ids[3]);
    assertThat(snapshotIds()).hasSize(2).doesNotContain(ids[3]);
    assertThat(TableFiles.path(fourthList)).doesNotExist();
    assertThat(plan.deletedFiles()).contains(FileLocations.normalise(fourthList));
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
  }

  @Test
  void aCommitLandingAfterTheTableWasLoadedIsPlannedOnNotReportedAsAClockDisagreement() {
    retention("2", null);
    Table stale = catalog.load("s.t");
    Table other = catalog.load("s.t");
    TableRows.append(other, row(5, "2026-10-05"));
    table.refresh();
    long newest = table.currentSnapshot().snapshotId();

    ExpirePlan plan = Expire.of(stale, "s.t").clock(clockAt(times[4])).commit();

    table.refresh();
    assertThat(plan.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[0], ids[1], ids[2], ids[3]);
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[4], newest);
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
  }

  @Test
  void aStatisticsFileOfAnExpiredSnapshotIsDeletedAsTheDryRunSaid() throws Exception {
    retention("2", null);
    String stats = table.location() + "/metadata/stats-0.puffin";
    try (var out = table.io().newOutputFile(stats).create()) {
      out.write(new byte[] {1, 2, 3});
    }
    table
        .updateStatistics()
        .setStatistics(new org.apache.iceberg.GenericStatisticsFile(ids[0], stats, 3, 0, List.of()))
        .commit();
    table.refresh();

    ExpirePlan dryRun = expire(clockAt(times[4])).apply();
    ExpirePlan plan = expire(clockAt(times[4])).commit();

    assertThat(dryRun.filesToDelete()).containsKey(FileLocations.normalise(stats));
    assertThat(plan.deletedFiles()).contains(FileLocations.normalise(stats));
    assertThat(TableFiles.path(stats)).doesNotExist();
  }

  @Test
  void maxAgeAloneKeepsWhatIsYoungerThanTheLimit() {
    retention(null, "P1D");

    ExpirePlan plan = expire(clockAt(times[2] + Duration.ofDays(1).toMillis())).commit();
    table.refresh();

    assertThat(plan.expireOlderThan()).isEqualTo(Instant.ofEpochMilli(times[2]));
    assertThat(plan.lines()).anyMatch(line -> line.startsWith("retention: max_age=P1D "));
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[2], ids[3], ids[4]);
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
  }

  @Test
  void aSnapshotIsKeptWhileEitherLimitKeepsIt() {
    // Count keeps four, age keeps two: the count wins.
    retention("4", "P1D");
    ExpirePlan byCount = expire(clockAt(times[3] + Duration.ofDays(1).toMillis())).apply();
    // Count keeps one, age keeps three: the age wins.
    retention("1", "P1D");
    ExpirePlan byAge = expire(clockAt(times[2] + Duration.ofDays(1).toMillis())).apply();
    // Both let go of all but the head.
    ExpirePlan neither = expire(clockAt(times[4] + Duration.ofDays(10).toMillis())).apply();

    assertThat(byCount.expired()).extracting(ExpiredSnapshot::snapshotId).containsExactly(ids[0]);
    assertThat(byAge.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[0], ids[1]);
    assertThat(neither.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[0], ids[1], ids[2], ids[3]);
  }

  @Test
  void aTaggedSnapshotAndAnAuditBranchSurviveWithTheirFilesAndContent() {
    Tag.of(table, "s.t", "old").snapshot(ids[0]).commit();
    table.manageSnapshots().createBranch("audit-x", ids[1]).commit();
    table
        .newAppend()
        .appendFile(TableRows.write(table, row(5, "2026-10-05")))
        .toBranch("audit-x")
        .commit();
    table.refresh();
    long auditHead = table.refs().get("audit-x").snapshotId();
    ContentHash atTag = TableFiles.hashAt(table, ids[0]);
    ContentHash atAudit = TableFiles.hashAt(table, auditHead);
    Set<Path> tagFiles = TableFiles.ofSnapshot(table, ids[0]);
    Set<Path> auditFiles = TableFiles.ofSnapshot(table, auditHead);
    retention("1", "P1D");

    ExpirePlan plan = expire(clockAt(times[4] + Duration.ofDays(10).toMillis())).commit();
    table.refresh();

    assertThat(plan.expired())
        .extracting(ExpiredSnapshot::snapshotId)
        .containsExactly(ids[1], ids[2], ids[3]);
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[0], ids[4], auditHead);
    assertThat(table.refs().get("old").snapshotId()).isEqualTo(ids[0]);
    assertThat(table.refs().get("audit-x").snapshotId()).isEqualTo(auditHead);
    // The tagged snapshot still needs the file main replaced: expiry must not have deleted it.
    assertThat(TableFiles.path(replaced.location())).exists();
    assertThat(tagFiles).allMatch(Files::exists);
    assertThat(auditFiles).allMatch(Files::exists);
    assertThat(TableFiles.hashAt(table, table.refs().get("old").snapshotId())).isEqualTo(atTag);
    assertThat(TableFiles.hashAt(table, table.refs().get("audit-x").snapshotId()))
        .isEqualTo(atAudit);
    assertThat(TableFiles.referenced(table)).allMatch(Files::exists);
  }

  @Test
  void aDryRunListsWhatWouldExpireAndChangesNothing() {
    retention("2", null);
    String metadataBefore = metadataLocation();
    Set<Path> filesBefore = TableFiles.onDisk(table);

    MaintenanceReport dryRun = expire(clockAt(times[4])).run(true);
    table.refresh();

    assertThat(metadataLocation()).isEqualTo(metadataBefore);
    assertThat(TableFiles.onDisk(table)).isEqualTo(filesBefore);
    ExpirePlan plan = (ExpirePlan) dryRun.outcome();
    assertThat(plan.committed()).isFalse();
    assertThat(plan.expired()).hasSize(3);
    assertThat(plan.lines()).anyMatch(line -> line.startsWith("would expire 3 snapshots"));
    assertThat(dryRun.before().snapshots()).isEqualTo(5);
    assertThat(dryRun.after().snapshots()).isEqualTo(2);

    MaintenanceReport real = expire(clockAt(times[4])).run(false);
    // The prediction is exact except for the size of the new metadata.json.
    assertThat(real.after().snapshots()).isEqualTo(dryRun.after().snapshots());
    assertThat(real.after().dataFiles()).isEqualTo(dryRun.after().dataFiles());
    assertThat(real.after().dataBytes()).isEqualTo(dryRun.after().dataBytes());
    assertThat(real.after().manifests()).isEqualTo(dryRun.after().manifests());
    assertThat(real.after().metadataFiles()).isEqualTo(dryRun.after().metadataFiles());
    assertThat(dryRun.estimated()).containsExactly("metadataBytes");
  }

  @Test
  void aTagPastItsRetainIsDroppedWithItsSnapshot() throws InterruptedException {
    Tag.of(table, "s.t", "short").snapshot(ids[0]).retain(Duration.ofMillis(1)).commit();
    Tag.of(table, "s.t", "long").snapshot(ids[1]).retain(Duration.ofDays(30)).commit();
    table.refresh();
    Thread.sleep(5);
    retention("1", null);

    // Iceberg judges max-ref-age by the system clock, so this test uses it too.
    ExpirePlan plan = expire(Clock.systemUTC()).commit();
    table.refresh();

    assertThat(plan.droppedRefs()).containsExactly("short");
    assertThat(table.refs()).doesNotContainKey("short").containsKey("long");
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[1], ids[4]);
  }

  @Test
  void aTagWithoutItsOwnRetainAgesOutByTheTablesMaxRefAgeAsIcebergDecides()
      throws InterruptedException {
    Tag.of(table, "s.t", "month-end").snapshot(ids[0]).commit();
    Tag.of(table, "s.t", "kept").snapshot(ids[1]).retain(Duration.ofDays(30)).commit();
    table.updateProperties().set("history.expire.max-ref-age-ms", "1").commit();
    table.refresh();
    Thread.sleep(5);
    retention("1", null);
    // What `floe tags` shows is the age expiry applies.
    assertThat(Tags.list(table))
        .filteredOn(e -> e.name().equals("month-end"))
        .singleElement()
        .satisfies(e -> assertThat(e.maxRefAge()).isEqualTo(Duration.ofMillis(1)));

    ExpirePlan dryRun = expire(Clock.systemUTC()).apply();
    ExpirePlan plan = expire(Clock.systemUTC()).commit();
    table.refresh();

    assertThat(dryRun.droppedRefs()).containsExactly("month-end");
    assertThat(plan.droppedRefs()).containsExactly("month-end");
    assertThat(table.refs()).doesNotContainKey("month-end").containsKey("kept");
    assertThat(snapshotIds()).containsExactlyInAnyOrder(ids[1], ids[4]);
  }

  @Test
  void aClockIcebergDisagreesWithChangesNothing() {
    Tag.of(table, "s.t", "month").snapshot(ids[0]).retain(Duration.ofDays(1)).commit();
    table.refresh();
    retention("1", null);
    String metadataBefore = metadataLocation();

    assertThatThrownBy(() -> expire(clockAt(times[4] + Duration.ofDays(2).toMillis())).commit())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Iceberg would expire")
        .hasMessageContaining("nothing was changed");
    table.refresh();
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void anAuditBranchPastItsMaxRefAgeOrAMissingRetentionIsRefused() throws InterruptedException {
    assertThatThrownBy(() -> expire(clockAt(times[4])).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot expire snapshots of s.t: the table has no retention")
        .hasMessageContaining("floe tables apply");

    retention("1", null);
    table.manageSnapshots().createBranch("audit-y", ids[1]).setMaxRefAgeMs("audit-y", 1).commit();
    table.refresh();
    Thread.sleep(5);
    assertThatThrownBy(() -> expire(Clock.systemUTC()).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("audit branch audit-y is older than its max-ref-age");
  }

  @Test
  void aScratchBranchPastItsMaxRefAgeIsDroppedLikeAnyRefNotRefusedLikeAnAuditBranch()
      throws InterruptedException {
    retention("5", null);
    table
        .manageSnapshots()
        .createBranch("scratch-z", ids[1])
        .setMaxRefAgeMs("scratch-z", 1)
        .commit();
    table.refresh();
    Thread.sleep(5);

    ExpirePlan plan = expire(Clock.systemUTC()).commit();

    table.refresh();
    assertThat(plan.droppedRefs()).containsExactly("scratch-z");
    assertThat(table.refs()).doesNotContainKey("scratch-z");
    assertThat(snapshotIds()).hasSize(5); // all five are main's ancestors, kept by keep_last
  }

  @Test
  void aMaxAgeShorterThanTheLateWindowATableCarriesFromAnOlderFloeIsRefusedAndNothingExpires() {
    retention("1", "P1D");
    table.updateProperties().set(FloeTableProperties.LATE_DATA_WINDOW, "P3D").commit();
    table.refresh();
    int snapshots = Iterables.size(table.snapshots());

    assertThatThrownBy(() -> expire(clockAt(times[4] + Duration.ofDays(2).toMillis())).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot expire snapshots of s.t: max_age P1D is shorter than the table's"
                + " late_data.window P3D, so expiry would remove the loads of slices still open"
                + " for late rows; set retention.max_age to at least the window in its table spec"
                + " and run `floe tables apply`");
    table.refresh();
    assertThat(table.snapshots()).hasSize(snapshots);
  }

  private Expire expire(Clock clock) {
    return Expire.of(table, "s.t").clock(clock);
  }

  private void retention(String keepLast, String maxAge) {
    var update = table.updateProperties();
    if (keepLast == null) {
      update.remove(FloeTableProperties.RETENTION_KEEP_LAST);
    } else {
      update.set(FloeTableProperties.RETENTION_KEEP_LAST, keepLast);
    }
    if (maxAge == null) {
      update.remove(FloeTableProperties.RETENTION_MAX_AGE);
    } else {
      update.set(FloeTableProperties.RETENTION_MAX_AGE, maxAge);
    }
    update.commit();
    table.refresh();
  }

  private Set<Path> filesOf(int... indexes) {
    Set<Path> files = new HashSet<>();
    for (int index : indexes) {
      files.addAll(TableFiles.ofSnapshot(table, ids[index]));
    }
    return files;
  }

  private List<Long> snapshotIds() {
    return java.util.stream.StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .collect(Collectors.toList());
  }

  private String metadataLocation() {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private void record(int index) throws InterruptedException {
    ids[index] = table.currentSnapshot().snapshotId();
    times[index] = table.currentSnapshot().timestampMillis();
    Thread.sleep(3); // distinct commit times, so age limits fall between snapshots
  }

  private static Clock clockAt(long millis) {
    return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
