package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.maintain.Deletes;
import dev.floe.flink.maintain.SmallFiles;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** `floe maintain --rewrite-position-deletes` on tables it cannot fully rewrite. */
class RewritePositionDeletesLimitsTest {
  private static final String T = SmallFiles.FACT;

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  /**
   * A table upgraded from format v2 to v3 keeps its v2 position delete files; v3 takes position
   * deletes only as deletion vectors, so a Parquet rewrite would fail inside Iceberg ("Must use DVs
   * for position deletes in V3"). Both the dry run and the run refuse up front, one line, exit 2.
   */
  @Test
  void aTableUpgradedToV3WithOldPositionDeletesIsRefusedUpFront() {
    Table fact = catalog.create(T, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 2, 10, 1);
    List<DataFile> files = Deletes.dataFiles(fact);
    Deletes.commit(fact, Deletes.positions(fact, files.get(0), 1));
    Deletes.commit(fact, Deletes.positions(fact, files.get(1), 2));
    fact.updateProperties().set("format-version", "3").commit();
    ContentHash before = TableContent.hash(catalog.load(T));

    CliRun dryRun = floe(catalog.home(), "maintain", T, "--rewrite-position-deletes", "--dry-run");
    CliRun run = floe(catalog.home(), "maintain", T, "--rewrite-position-deletes");

    for (CliRun refused : List.of(dryRun, run)) {
      assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(2);
      assertThat(refused.err())
          .contains("Cannot rewrite the position deletes of " + T + ": it is format v3")
          .contains("2 position delete file(s)")
          .doesNotContain("Must use DVs");
    }
    assertThat(TableContent.hash(catalog.load(T))).isEqualTo(before);
  }

  /**
   * Without --slice, position delete files in the null partition of a day(ts) table (rows whose ts
   * is null) lie in no time slice: they are skipped and reported, and the other slices are
   * rewritten.
   */
  @Test
  void aNullPartitionDoesNotStopTheOtherSlicesFromBeingRewritten() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()));
    Table table =
        catalog.create("s.events", schema, PartitionSpec.builderFor(schema).day("ts").build());
    for (LocalDateTime ts : new LocalDateTime[] {LocalDateTime.parse("2026-10-03T01:00"), null}) {
      for (int f = 0; f < 2; f++) {
        Record[] rows = new Record[3];
        for (int i = 0; i < 3; i++) {
          Map<String, Object> values = new HashMap<>();
          values.put("id", (long) (f * 10 + i));
          if (ts != null) {
            values.put("ts", ts);
          }
          rows[i] = TableRows.row(table, values);
        }
        TableRows.append(table, rows);
      }
    }
    for (DataFile file : Deletes.dataFiles(table)) {
      Deletes.commit(table, Deletes.positions(table, file, 0));
    }

    CliRun run = floe(catalog.home(), "maintain", "s.events", "--rewrite-position-deletes");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("rewrote 2 position delete file(s) -> 1");
    assertThat(run.out()).contains("skipped: partition ts_day=null lies in no time slice");
  }
}
