package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Late rows are counted exactly, row by row, and "unknown" when history cannot tell. */
class LateRowsTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  /** Unpartitioned, so one file holds rows inside and outside a slice: bounds cannot decide. */
  private Table source;

  private long read;

  @BeforeEach
  void aSourceARunRead() {
    source = catalog.create("s.src", LineageCommits.SCHEMA, PartitionSpec.unpartitioned());
    TableRows.append(source, row(1, "2026-10-03"), row(2, "2026-10-04"));
    read = source.currentSnapshot().snapshotId();
  }

  @Test
  void rowsAppendedAfterTheSnapshotReadAreCountedInsideTheSliceOnly() {
    TableRows.append(
        source,
        row(3, "2026-10-02"),
        row(4, "2026-10-03"),
        row(5, "2026-10-03"),
        row(6, "2026-10-04"));
    TableRows.append(source, row(7, "2026-10-03"));
    source.refresh();

    LateRowCount oct3 = LateRows.count(source, "s.src", read, LineageCommits.day("2026-10-03"));
    LateRowCount oct4 = LateRows.count(source, "s.src", read, LineageCommits.day("2026-10-04"));
    LateRowCount oct5 = LateRows.count(source, "s.src", read, LineageCommits.day("2026-10-05"));

    assertThat(oct3.count()).contains(3L);
    assertThat(oct3.upToSnapshotId()).isEqualTo(source.currentSnapshot().snapshotId());
    assertThat(oct4.count()).contains(1L);
    assertThat(oct5.count()).contains(0L);
    assertThat(oct3.describe()).isEqualTo("s.src: 3 rows after snapshot " + read);
  }

  @Test
  void aSliceCountsOnlyOutsideTheNewerLoadsInsideItHoweverManyThereAre() {
    TableRows.append(source, row(3, "2026-10-03"), row(4, "2026-10-05"), row(5, "2027-02-01"));
    source.refresh();
    Slice years =
        new Slice(
            "d",
            Slice.ColumnKind.DATE,
            SliceUnit.YEAR,
            LocalDate.parse("2010-01-01").atStartOfDay(),
            LocalDate.parse("2030-01-01").atStartOfDay());
    // A day load for every day of 2010 to 2029 but Oct 5, 2026, plus a month over some of them.
    List<Slice> newer = new ArrayList<>();
    for (LocalDate day = LocalDate.parse("2010-01-01");
        day.getYear() < 2030;
        day = day.plusDays(1)) {
      if (!day.equals(LocalDate.parse("2026-10-05"))) {
        newer.add(LineageCommits.day(day.toString()));
      }
    }
    newer.add(LineageCommits.month("2026-10"));

    assertThat(LateRows.count(source, "s.src", read, years, List.of(), Optional::empty).count())
        .contains(3L);
    assertThat(LateRows.count(source, "s.src", read, years, newer, Optional::empty).count())
        .as("Oct 5 lies inside the newer month load")
        .contains(0L);
    newer.remove(LineageCommits.month("2026-10"));
    assertThat(LateRows.count(source, "s.src", read, years, newer, Optional::empty).count())
        .contains(1L);
  }

  @Test
  void aDaySliceAppliesToASourceTimestampColumnUpToTheLastMicrosecond() {
    Schema events =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.TimestampType.withZone()));
    Table clicks = catalog.create("s.clicks", events, PartitionSpec.unpartitioned());
    TableRows.append(clicks, click(clicks, 1, "2026-10-03T12:00:00Z"));
    long runRead = clicks.currentSnapshot().snapshotId();
    TableRows.append(
        clicks,
        click(clicks, 2, "2026-10-02T23:59:59.999999Z"),
        click(clicks, 3, "2026-10-03T00:00:00Z"),
        click(clicks, 4, "2026-10-03T23:59:59.999999Z"),
        click(clicks, 5, "2026-10-04T00:00:00Z"));
    clicks.refresh();

    assertThat(
            LateRows.count(clicks, "s.clicks", runRead, LineageCommits.day("2026-10-03")).count())
        .contains(2L);
  }

  @Test
  void nothingSinceTheSnapshotReadIsZero() {
    assertThat(LateRows.count(source, "s.src", read, LineageCommits.day("2026-10-03")).count())
        .contains(0L);
  }

  @Test
  void aSourceWithoutTheSliceColumnIsUnknownOnceItChangedAndZeroWhileItDidNot() {
    Schema other = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    Table noDate = catalog.create("s.nodate", other, PartitionSpec.unpartitioned());
    TableRows.append(noDate, TableRows.row(noDate, Map.of("id", 1L)));
    long readNoDate = noDate.currentSnapshot().snapshotId();
    assertThat(
            LateRows.count(noDate, "s.nodate", readNoDate, LineageCommits.day("2026-10-03"))
                .count())
        .contains(0L);
    TableRows.append(noDate, TableRows.row(noDate, Map.of("id", 2L)));
    noDate.refresh();

    LateRowCount count =
        LateRows.count(noDate, "s.nodate", readNoDate, LineageCommits.day("2026-10-03"));

    assertThat(count.known()).isFalse();
    assertThat(count.unknownReason()).isEqualTo("s.nodate has no date or timestamp column d");
  }

  @Test
  void anExpiredSnapshotBetweenReadAndNowIsUnknown() {
    long between = LineageCommits.append(source, "2026-10-03", 2);
    LineageCommits.append(source, "2026-10-03", 1);
    source.expireSnapshots().expireSnapshotId(between).commit();
    source.refresh();

    LateRowCount count = LateRows.count(source, "s.src", read, LineageCommits.day("2026-10-03"));

    assertThat(count.known()).isFalse();
    assertThat(count.unknownReason())
        .isEqualTo(
            "snapshot "
                + read
                + " is not in the current history of s.src (expired, or the"
                + " table was rolled back)");
  }

  @Test
  void aSourceRolledBackToBeforeTheSnapshotReadIsUnknown() {
    TableRows.append(source, row(9, "2026-10-03"));
    long before = source.currentSnapshot().snapshotId();
    LineageCommits.append(source, "2026-10-03", 1);
    long laterRead = source.currentSnapshot().snapshotId();
    Rollback.of(source, "s.src").toSnapshot(before).commit();
    source.refresh();

    LateRowCount count =
        LateRows.count(source, "s.src", laterRead, LineageCommits.day("2026-10-03"));

    assertThat(count.known()).isFalse();
    assertThat(count.unknownReason()).contains("is not in the current history of s.src");
  }

  @Test
  void anOverwriteThatMayHoldSliceRowsIsUnknownAndOneElsewhereIsNot() {
    Table partitioned = LineageCommits.create(catalog.catalog(), "s.part", Map.of());
    LineageCommits.append(partitioned, "2026-10-03", 1);
    long runRead = partitioned.currentSnapshot().snapshotId();
    LineageCommits.load(partitioned, "2026-10-05", "r-other", "other_job", null, 2);
    LineageCommits.append(partitioned, "2026-10-03", 2);

    LateRowCount untouched =
        LateRows.count(partitioned, "s.part", runRead, LineageCommits.day("2026-10-03"));
    LineageCommits.load(partitioned, "2026-10-03", "r-rewrite", "other_job", null, 4);
    partitioned.refresh();
    LateRowCount rewritten =
        LateRows.count(partitioned, "s.part", runRead, LineageCommits.day("2026-10-03"));

    assertThat(untouched.count()).contains(2L);
    assertThat(rewritten.known()).isFalse();
    assertThat(rewritten.unknownReason())
        .isEqualTo(
            "overwrite snapshot "
                + partitioned.currentSnapshot().snapshotId()
                + " of s.part may have rewritten rows of the slice");
  }

  private static Record click(Table table, long id, String instant) {
    return TableRows.row(
        table,
        Map.of("id", id, "d", java.time.Instant.parse(instant).atOffset(java.time.ZoneOffset.UTC)));
  }

  private Record row(long id, String day) {
    return TableRows.row(source, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
