package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LineageTest {
  private static final Lineage LINEAGE =
      new Lineage(
          "a1b2c3d4e5f6a1b2c3d4e5f6",
          "run-7f3e",
          "fact_orders_daily",
          "overwrite",
          "order_date=[2026-10-03,2026-10-04)",
          "0.1.0+abc1234",
          42,
          "42:0123456789abcdef0123456789abcdef",
          Map.of("sales.staging_orders", 8_123_456_789L, "sales.customers", 17L, "ref.fx", -3L),
          null);

  @Test
  void aNumberAnotherToolWroteWronglyIsNamedInTheErrorNotReportedAsABareNumberFormatException() {
    Map<String, String> summary = new HashMap<>();
    summary.put(LineageKeys.RUN_ID, "run-x");
    summary.put(LineageKeys.ROWS, "many");

    assertThatThrownBy(() -> Lineage.fromSummary(summary))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot read a snapshot's Floe lineage: floe.rows is 'many', not a whole number");

    summary.put(LineageKeys.ROWS, "3");
    summary.put(LineageKeys.SOURCE_SNAPSHOTS, "s.src@x1");
    assertThatThrownBy(() -> Lineage.fromSummary(summary))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a source snapshot id is 'x1'");

    // StringIndexOutOfBoundsException "begin 0, end -1, length 20" before.
    summary.put(LineageKeys.SOURCE_SNAPSHOTS, "sales.staging_orders");
    assertThatThrownBy(() -> Lineage.fromSummary(summary))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot read a snapshot's Floe lineage: a source snapshot is 'sales.staging_orders',"
                + " not <table>@<snapshot id>");
    assertThat(Lineage.problem(summary))
        .contains("a source snapshot is 'sales.staging_orders', not <table>@<snapshot id>");
    assertThat(Lineage.readable(summary)).isEmpty();
  }

  @Test
  void roundTripsThroughTheSnapshotSummary() {
    Map<String, String> summary = LINEAGE.toSummary();

    assertThat(Lineage.fromSummary(summary)).contains(LINEAGE);
  }

  @Test
  void upperBoundsOfSourcesThatMovedRoundTripAndAnswerTheLatestPossiblyRead() {
    Lineage moved = LINEAGE.withSourcesUntil(Map.of("sales.staging_orders", 9_000_000_000L));

    assertThat(LINEAGE.toSummary()).doesNotContainKey(LineageKeys.SOURCE_SNAPSHOTS_UNTIL);
    assertThat(Lineage.fromSummary(moved.toSummary())).contains(moved);
    assertThat(moved.latestPossiblyRead("sales.staging_orders")).isEqualTo(9_000_000_000L);
    assertThat(moved.latestPossiblyRead("sales.customers")).isEqualTo(17L);
  }

  @Test
  void writesEveryKeyUnderTheFloePrefix() {
    Map<String, String> summary = LINEAGE.toSummary();

    assertThat(summary.keySet()).allMatch(key -> key.startsWith(LineageKeys.PREFIX));
    assertThat(summary)
        .contains(
            entry(LineageKeys.RUN_KEY, "a1b2c3d4e5f6a1b2c3d4e5f6"),
            entry(LineageKeys.RUN_ID, "run-7f3e"),
            entry(LineageKeys.JOB, "fact_orders_daily"),
            entry(LineageKeys.MODE, "overwrite"),
            entry(LineageKeys.SLICE, "order_date=[2026-10-03,2026-10-04)"),
            entry(LineageKeys.CODE_VERSION, "0.1.0+abc1234"),
            entry(LineageKeys.ROWS, "42"),
            entry(LineageKeys.CONTENT_HASH, "42:0123456789abcdef0123456789abcdef"),
            entry(
                LineageKeys.SOURCE_SNAPSHOTS,
                "ref.fx@-3,sales.customers@17,sales.staging_orders@8123456789"));
    assertThat(summary).doesNotContainKey(LineageKeys.BACKFILL_ID);
  }

  @Test
  void roundTripsABackfillIdAndNoSources() {
    Lineage lineage =
        new Lineage(
            "key",
            "run",
            "job",
            "overwrite",
            "d=[2026-01-01,2026-02-01)",
            "v",
            0,
            ContentHash.empty().encode(),
            Map.of(),
            "backfill-2026-q1");

    Map<String, String> summary = lineage.toSummary();

    assertThat(summary).containsEntry(LineageKeys.BACKFILL_ID, "backfill-2026-q1");
    assertThat(Lineage.fromSummary(summary)).contains(lineage);
  }

  @Test
  void readsLineageAmongIcebergsOwnSummaryKeys() {
    Map<String, String> summary = new HashMap<>(LINEAGE.toSummary());
    summary.put("added-records", "42");
    summary.put("total-records", "100");

    assertThat(Lineage.fromSummary(summary)).contains(LINEAGE);
  }

  @Test
  void aSummaryWithoutFloeKeysHasNoLineage() {
    assertThat(Lineage.fromSummary(Map.of("added-records", "3", "total-records", "3")))
        .isEqualTo(Optional.empty());
    assertThat(Lineage.fromSummary(Map.of())).isEmpty();
    assertThat(Lineage.fromSummary(null)).isEmpty();
  }

  @Test
  void withContentFillsInRowsAndHash() {
    ContentHash content = ContentHash.empty();
    content.add(1, 2);
    content.add(3, 4);

    Lineage filled = LINEAGE.withContent(content);

    assertThat(filled.rows()).isEqualTo(2);
    assertThat(filled.contentHash()).isEqualTo(content.encode());
    assertThat(filled.runId()).isEqualTo(LINEAGE.runId());
    assertThat(filled.sourceSnapshots()).isEqualTo(LINEAGE.sourceSnapshots());
  }
}
