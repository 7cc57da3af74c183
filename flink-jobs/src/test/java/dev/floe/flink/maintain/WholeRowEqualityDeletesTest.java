package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.slice.ScopeDeletes;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A global equality delete written with whole rows whose other values lie outside the slice (it
 * deletes order 2 of 2026-10-03 by its id, and holds 2026-10-09): Iceberg's scan of the slice
 * leaves it out by those bounds. Compaction rewrote the slice without it, bringing order 2 back for
 * every reader with "content hash unchanged", and the plan (which sees it) proposed a compaction
 * that then found nothing to do, every night.
 */
class WholeRowEqualityDeletesTest {
  private static final String DAY = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void compactionAppliesADeleteTheSlicesFilterLeftOut() {
    Table fact = factWithAGlobalDeleteOfOrder2(3);
    assertThat(orderIds()).containsExactly(1L, 3L, 4L, 5L, 6L);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY)).commit();

    assertThat(result.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(orderIds()).containsExactly(1L, 3L, 4L, 5L, 6L);
  }

  @Test
  void aFileChosenForSuchADeleteIsPlannedRewrittenOnceAndNotAgain() {
    Table fact = factWithAGlobalDeleteOfOrder2(1);
    fact.updateProperties().set(MaintenancePolicy.DELETE_FILE_THRESHOLD, "1").commit();

    MaintenancePlan first = plan();
    assertThat(first.items()).anyMatch(i -> i.action() == PlanAction.COMPACT);
    ApplyResult applied = PlanApply.of(catalog.config(), first).run();

    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    assertThat(orderIds()).containsExactly(1L);
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  @Test
  void compactionAppliesADeleteWhoseOtherColumnIsNull() {
    // A column that is all null has no bounds: Iceberg leaves the delete out by its null count.
    Table fact = factWithAGlobalDeleteOfOrder2(3, OPTIONAL_DATE, null);
    assertThat(orderIds()).containsExactly(1L, 3L, 4L, 5L, 6L);

    Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY)).commit();

    assertThat(orderIds()).containsExactly(1L, 3L, 4L, 5L, 6L);
  }

  @Test
  void aDeleteOfAnotherDaysPartitionDoesNotMakeTheSlicePlanTheWholeTable() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY, 1, 2, 1);
    SmallFiles.append(fact, "2026-10-04", 1, 2, 3);
    Deletes.commit(
        fact,
        Deletes.wholeRowEquality(
            fact,
            fact.spec(),
            Deletes.dataFiles(fact, "order_date=2026-10-04").get(0).partition(),
            "order_id",
            3L,
            "order_date",
            LocalDate.parse("2026-10-04")));
    fact.refresh();
    long snapshot = fact.currentSnapshot().snapshotId();

    // Its partition pins the day: it applies to 2026-10-04's files only, which hold that day.
    assertThat(ScopeDeletes.at(fact, snapshot).scope(slice(fact, DAY)).replanned()).isFalse();
    assertThat(ScopeDeletes.at(fact, snapshot).scope(slice(fact, "2026-10-04")).replanned())
        .isFalse();
    // A month's delete may delete rows of the day's files by key while holding another day.
    catalog.catalog().dropTable(org.apache.iceberg.catalog.TableIdentifier.parse(SmallFiles.FACT));
    Table byMonth =
        catalog.create(
            SmallFiles.FACT,
            SmallFiles.SCHEMA,
            PartitionSpec.builderFor(SmallFiles.SCHEMA).month("order_date").build());
    SmallFiles.append(byMonth, DAY, 1, 2, 1);
    Deletes.commit(
        byMonth,
        Deletes.wholeRowEquality(
            byMonth,
            byMonth.spec(),
            Deletes.dataFiles(byMonth).get(0).partition(),
            "order_id",
            2L,
            "order_date",
            LocalDate.parse("2026-10-09")));
    byMonth.refresh();
    Expression day =
        Expressions.and(
            Expressions.greaterThanOrEqual("order_date", DAY),
            Expressions.lessThan("order_date", "2026-10-04"));
    assertThat(
            ScopeDeletes.at(byMonth, byMonth.currentSnapshot().snapshotId()).scope(day).replanned())
        .isTrue();
    // Without a partition on the day (a global delete), it may apply to any day's files.
    Table global = factWithAGlobalDeleteOfOrder2(1, SmallFiles.SCHEMA, LocalDate.parse(DAY));
    assertThat(
            ScopeDeletes.at(global, global.currentSnapshot().snapshotId())
                .scope(slice(global, DAY))
                .replanned())
        .isTrue();
  }

  private static Expression slice(Table table, String day) {
    return SliceResolver.resolve(SmallFiles.FACT, table, "order_date", day).toExpression();
  }

  private static final Schema OPTIONAL_DATE =
      new Schema(
          SmallFiles.SCHEMA.columns().stream()
              .map(c -> c.name().equals("order_date") ? c.asOptional() : c)
              .toList());

  /** Orders 1.. of one day in {@code files} files of two rows, and the delete of order 2. */
  private Table factWithAGlobalDeleteOfOrder2(int files) {
    return factWithAGlobalDeleteOfOrder2(files, SmallFiles.SCHEMA, LocalDate.parse("2026-10-09"));
  }

  /** The same with {@code schema}, the delete's row holding {@code dayOfDelete}. */
  private Table factWithAGlobalDeleteOfOrder2(int files, Schema schema, LocalDate dayOfDelete) {
    catalog.catalog().dropTable(org.apache.iceberg.catalog.TableIdentifier.parse(SmallFiles.FACT));
    Table fact = catalog.create(SmallFiles.FACT, schema, PartitionSpec.unpartitioned());
    PartitionSpec unpartitioned = fact.spec();
    fact.updateSpec().addField("order_date").commit();
    SmallFiles.append(fact, DAY, files, 2, 1);
    Deletes.commit(
        fact,
        Deletes.wholeRowEquality(
            fact, unpartitioned, null, "order_id", 2L, "order_date", dayOfDelete));
    return fact;
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of(SmallFiles.FACT));
  }

  private List<Long> orderIds() {
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(catalog.load(SmallFiles.FACT)).build()) {
      records.forEach(r -> ids.add((Long) r.getField("order_id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ids.sort(null);
    return ids;
  }
}
