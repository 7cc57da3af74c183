package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Slice strings for compaction resolve like `floe run --slice`, against real tables. */
class CompactionSlicesTest {
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withZone()),
          Types.NestedField.required(3, "ship_date", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aDayOnAnIdentityDateTableResolvesToTheSameLabelAsARun() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);

    List<Slice> slices =
        CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("2026-10-03", " 2026-11 "));

    assertThat(slices)
        .extracting(Slice::label)
        .containsExactly(
            "order_date=[2026-10-03,2026-10-04)", "order_date=[2026-11-01,2026-12-01)");
  }

  @Test
  void anHourOnAnHourPartitionedTimestampTableResolves() {
    Table events =
        catalog.create("raw.events", EVENTS, PartitionSpec.builderFor(EVENTS).hour("ts").build());

    assertThat(CompactionSlices.resolve("raw.events", events, List.of("2026-10-03T05")))
        .extracting(Slice::label)
        .containsExactly("ts=[2026-10-03T05:00,2026-10-03T06:00)");
  }

  @Test
  void aTableWithTwoTimePartitionColumnsNeedsTheColumnNamed() {
    Table events =
        catalog.create(
            "raw.events",
            EVENTS,
            PartitionSpec.builderFor(EVENTS).day("ts").identity("ship_date").build());

    assertUsageError(
        () -> CompactionSlices.resolve("raw.events", events, List.of("2026-10-03")),
        "several columns (ts, ship_date)",
        "--slice ts=2026-10-03");
    assertThat(CompactionSlices.resolve("raw.events", events, List.of("ship_date=2026-10-03")))
        .extracting(Slice::label)
        .containsExactly("ship_date=[2026-10-03,2026-10-04)");
  }

  @Test
  void badSlicesAreUsageErrorsThatNameTheValue() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    Table unpartitioned =
        catalog.create("sales.flat", SmallFiles.SCHEMA, PartitionSpec.unpartitioned());

    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of()),
        "Cannot compact sales.fact_orders: give at least one --slice");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("2026-13-01")),
        "Cannot parse --slice '2026-13-01'");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("yesterday")),
        "Cannot parse --slice 'yesterday'");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("2026-10-03T05")),
        "Cannot use --slice 2026-10-03T05 on sales.fact_orders: an hour slice");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("amount=2026-10-03")),
        "its type is decimal(10, 2)");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("nope=2026-10-03")),
        "Cannot slice sales.fact_orders by 'nope': no such column");
    assertUsageError(
        () -> CompactionSlices.resolve(SmallFiles.FACT, fact, List.of("2026-10", "2026-10-03")),
        "slices order_date=[2026-10-01,2026-11-01) and order_date=[2026-10-03,2026-10-04)"
            + " overlap");
    assertUsageError(
        () -> CompactionSlices.resolve("sales.flat", unpartitioned, List.of("2026-10-03")),
        "Cannot compact slice '2026-10-03' of sales.flat: the table has no time partition");
  }

  private static void assertUsageError(Runnable call, String... fragments) {
    assertThatThrownBy(call::run)
        .isInstanceOf(InvalidInputException.class)
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.INVALID_INPUT))
        .satisfies(
            e -> {
              for (String fragment : fragments) {
                assertThat(e.getMessage()).contains(fragment);
              }
            });
  }
}
