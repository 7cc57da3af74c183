package dev.floe.catalog.maintain.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Plans a catalog of 20 tables in different states and checks the ranking against the numbers read
 * from the tables, never against a fixed order.
 */
class MaintenancePlannerTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  private final Instant now = Instant.now().plusSeconds(60);
  private final Clock clock = Clock.fixed(now, ZoneOffset.UTC);
  private final LocalDate day = MaintenanceCatalog.OLD_DAY;

  private MaintenanceCatalog tables() {
    return new MaintenanceCatalog(catalog, now);
  }

  private MaintenancePlan planAll(boolean includeOpen) {
    List<String> names = MaintenancePlanner.select(catalog.catalog(), List.of(), true, null);
    return MaintenancePlanner.withClock(clock)
        .includeOpen(includeOpen)
        .plan(catalog.catalog(), names);
  }

  @Test
  void aCatalogInManyStatesIsRankedByTheFilesEachItemRemoves() {
    MaintenanceCatalog t = tables();
    // Healthy: one file per day, short history.
    for (int i = 0; i < 8; i++) {
      t.files(t.table("ok.healthy_" + i), day.plusDays(i), 1, 5);
    }
    // Small files: 6, 9, 14 and 4 (below min_input_files 5) in one day.
    int[] small = {6, 9, 14, 4};
    for (int i = 0; i < small.length; i++) {
      t.files(t.table("sf.small_" + small[i]), day, small[i], 2);
    }
    // Deletes: position deletes through RowDelta over 4 of 10 rows, and 1 of 100 rows.
    Table heavy = t.table("del.heavy");
    DataFile heavyFile = t.files(heavy, day, 1, 10).get(0);
    t.deleteRows(heavy, heavyFile, 4);
    Table light = t.table("del.light");
    DataFile lightFile = t.files(light, day, 1, 100).get(0);
    t.set(light, Map.of(MaintenancePolicy.DELETE_FILE_THRESHOLD, "2"));
    t.deleteRows(light, lightFile, 1);
    // Long histories beyond keep_last 3.
    t.history(t.table("hist.h6"), day, 6);
    t.history(t.table("hist.h12"), day, 12);
    // Many manifests: 8 appends, max_manifests 4.
    Table manifests = t.table("man.m8");
    t.set(
        manifests,
        Map.of(
            MaintenancePolicy.MAX_MANIFESTS, "4", FloeTableProperties.RETENTION_KEEP_LAST, "100"));
    t.history(manifests, day, 8);
    // Orphans: 3 old unreferenced files, and 1 young one (kept).
    Table orphans = t.table("orph.o3");
    t.files(orphans, day, 1, 5);
    long orphanBytes = 0;
    for (int i = 0; i < 3; i++) {
      orphanBytes += t.uncommitted(orphans, day.plusDays(1), Duration.ofDays(10)).fileSizeInBytes();
    }
    // Open slices: small files in a day whose late-data window is open, and in a day being written.
    Table late = t.table("open.late");
    t.set(late, Map.of(FloeTableProperties.LATE_DATA_WINDOW, "P3D"));
    t.files(late, t.today().minusDays(1), 7, 2);
    Table writing = t.table("open.writing");
    t.files(writing, day, 9, 2);
    t.uncommitted(writing, day, Duration.ZERO);

    MaintenancePlan plan = planAll(false);

    assertThat(plan.health()).hasSize(20);
    assertThat(plan.unreadable()).isEmpty();
    assertThat(plan.items()).isNotEmpty().allSatisfy(item -> assertThat(item.score()).isPositive());
    // Ranked by score, highest first.
    for (int i = 1; i < plan.items().size(); i++) {
      assertThat(plan.items().get(i - 1).score())
          .isGreaterThanOrEqualTo(plan.items().get(i).score());
    }
    // Nothing for healthy tables, nor for 4 small files (below min_input_files).
    assertThat(plan.items())
        .noneMatch(i -> i.table().startsWith("ok.") || i.table().equals("sf.small_4"));

    // Compaction of small files: the table with more small files comes first.
    List<PlanItem> compactions = items(plan, PlanAction.COMPACT, "sf.");
    assertThat(compactions).extracting(PlanItem::table).hasSize(3);
    for (int i = 1; i < compactions.size(); i++) {
      assertThat(smallFiles(plan, compactions.get(i - 1).table()))
          .isGreaterThan(smallFiles(plan, compactions.get(i).table()));
    }
    PlanItem fourteen = item(plan, "sf.small_14", PlanAction.COMPACT);
    assertThat(fourteen.slice()).contains("d=" + day);
    assertThat(fourteen.before()).isEqualTo(14);
    assertThat(fourteen.after()).isEqualTo(1);
    assertThat(fourteen.score()).isEqualTo(13);
    assertThat(fourteen.bytesToRewrite())
        .isEqualTo(health(plan, "sf.small_14").slices().get(0).smallBytes());

    // Deletes: 40 % of the file's rows deleted is over the 30 % ratio; 1 % with threshold 2 is
    // not.
    SliceHealth heavySlice = health(plan, "del.heavy").slices().get(0);
    assertThat(heavySlice.deleteFiles()).isEqualTo(1);
    assertThat(heavySlice.deletedRowRatio()).isEqualTo(0.4);
    assertThat(heavySlice.filesOverDeleteThreshold()).isEqualTo(1);
    assertThat(item(plan, "del.heavy", PlanAction.COMPACT).reasons())
        .anyMatch(r -> r.contains("1 data files") && r.contains("deleted_row_ratio 30.0%"));
    assertThat(plan.items()).noneMatch(i -> i.table().equals("del.light"));

    // History: expiry keeps 3; the longer history removes more files and ranks first.
    PlanItem h12 = item(plan, "hist.h12", PlanAction.EXPIRE);
    PlanItem h6 = item(plan, "hist.h6", PlanAction.EXPIRE);
    assertThat(h12.before() - h12.after()).isEqualTo(health(plan, "hist.h12").snapshots() - 3);
    assertThat(plan.items().indexOf(h12)).isLessThan(plan.items().indexOf(h6));

    // Manifests over the trigger.
    PlanItem m8 = item(plan, "man.m8", PlanAction.REWRITE_MANIFESTS);
    assertThat(m8.before()).isEqualTo(8);
    assertThat(m8.after()).isEqualTo(1);

    // Orphans: the old ones, with their bytes; the young one is not counted.
    PlanItem o3 = item(plan, "orph.o3", PlanAction.ORPHANS);
    assertThat(o3.score()).isEqualTo(3);
    assertThat(o3.bytesToDelete()).isEqualTo(orphanBytes);

    // Open slices are left out, with the reason; --include-open plans them.
    assertThat(plan.items()).noneMatch(i -> i.table().startsWith("open."));
    assertThat(plan.leftOut())
        .anySatisfy(
            l -> {
              assertThat(l.item().table()).isEqualTo("open.late");
              assertThat(l.reason()).contains("late-data window open until");
            })
        .anySatisfy(
            l -> {
              assertThat(l.item().table()).isEqualTo("open.writing");
              assertThat(l.reason())
                  .contains("being written")
                  .contains(
                      "with no writer running, `floe maintain open.writing --compact --slice "
                          + l.item().slice().orElseThrow()
                          + "` compacts it now");
            });
    MaintenancePlan withOpen = planAll(true);
    assertThat(withOpen.items()).anyMatch(i -> i.table().equals("open.late"));
    assertThat(withOpen.items()).anyMatch(i -> i.table().equals("open.writing"));
    assertThat(withOpen.leftOut()).isEmpty();
  }

  @Test
  void aHealthyCatalogGivesAnEmptyPlan() {
    MaintenanceCatalog t = tables();
    for (int i = 0; i < 5; i++) {
      t.files(t.table("ok.t" + i), day.plusDays(i), 1, 5);
    }
    t.table("ok.empty");

    MaintenancePlan plan = planAll(false);

    assertThat(plan.health()).hasSize(6);
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.leftOut()).isEmpty();
  }

  @Test
  void aTableWhosePolicyCannotBeReadIsListedAndTheOthersArePlanned() {
    MaintenanceCatalog t = tables();
    Table bad = t.table("s.bad");
    t.set(bad, Map.of(MaintenancePolicy.MIN_INPUT_FILES, "many"));
    t.files(t.table("s.small"), day, 6, 2);

    MaintenancePlan plan = planAll(false);

    assertThat(plan.unreadable())
        .containsOnlyKeys("s.bad")
        .hasValueSatisfying(
            new org.assertj.core.api.Condition<>(
                m -> m.contains(MaintenancePolicy.MIN_INPUT_FILES + "=many"),
                "names the property"));
    assertThat(plan.items()).extracting(PlanItem::table).containsExactly("s.small");
  }

  @Test
  void aSliceOfATableWhoseOrphanListingFailsIsLeftOutNotCompacted() {
    MaintenanceCatalog t = tables();
    // A minimum age under an hour makes the orphan listing refuse, so the young uncommitted file
    // that marks the slice as being written is not seen.
    Table unlisted = t.table("w.unlisted");
    t.set(unlisted, Map.of(MaintenancePolicy.ORPHAN_MIN_AGE, "PT10M"));
    t.files(unlisted, day, 6, 2);
    t.uncommitted(unlisted, day, Duration.ZERO);

    MaintenancePlan plan = planAll(false);

    assertThat(health(plan, "w.unlisted").problems()).singleElement().asString().contains("PT10M");
    assertThat(plan.items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(
            left -> {
              assertThat(left.item().table()).isEqualTo("w.unlisted");
              assertThat(left.reason()).contains("state unknown").contains("PT10M");
            });
  }

  @Test
  void afterSpecEvolutionOnlySlicesOfTheCurrentSpecArePlannedAndOlderSpecFilesAreLeftOut() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.evo");
    t.files(table, day, 6, 3);
    table
        .updateSpec()
        .removeField("d")
        .addField(org.apache.iceberg.expressions.Expressions.month("d"))
        .commit();
    table.refresh();
    t.files(table, day.plusDays(1), 6, 3);

    MaintenancePlan plan = planAll(false);

    List<PlanItem> compactions = items(plan, PlanAction.COMPACT, "s.evo");
    assertThat(compactions).singleElement();
    // The one planned slice is the month of the current spec, holding the 6 newer files.
    assertThat(compactions.get(0).slice()).isNotEqualTo(Optional.of("d=" + day));
    assertThat(compactions.get(0).before()).isEqualTo(6);
    assertThat(compactions.get(0).after()).isEqualTo(1);
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(
            left -> {
              assertThat(left.item().slice()).contains("d=" + day);
              assertThat(left.reason()).contains("current partition spec");
            });
  }

  /** A table partitioned by month(d) with 2 small files of {@link #day}'s month, then by day(d). */
  private Table monthThenDay(MaintenanceCatalog t, String name) {
    Table table = t.table(name);
    table
        .updateSpec()
        .removeField("d")
        .addField(org.apache.iceberg.expressions.Expressions.month("d"))
        .commit();
    table.refresh();
    t.files(table, day, 2, 3);
    table
        .updateSpec()
        .removeField("d_month")
        .addField(org.apache.iceberg.expressions.Expressions.day("d"))
        .commit();
    table.refresh();
    return table;
  }

  @Test
  void afterAMonthSpecBecameADaySpecTheDayIsPlannedAsTheMonthWhichTheSliceFlagAccepts() {
    MaintenanceCatalog t = tables();
    Table table = monthThenDay(t, "s.finer");
    t.files(table, day, 6, 3);

    MaintenancePlan plan = planAll(false);

    // A day slice does not cover the older spec's month partition, whose files still hold rows
    // of that day: --slice refuses it. The month covers both and is accepted.
    String month = "d=" + day.toString().substring(0, 7);
    assertThat(items(plan, PlanAction.COMPACT, "s.finer"))
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.slice()).contains(month);
              // The month's 8 files: the day's 6 small ones become 1, the older spec's 2 stay.
              assertThat(item.before()).isEqualTo(8);
              assertThat(item.after()).isEqualTo(3);
            });
    Table loaded = catalog.load("s.finer");
    assertThat(SliceResolver.resolve("s.finer", loaded, "d", month.substring(2)).label())
        .isEqualTo("d=[" + day.withDayOfMonth(1) + "," + day.withDayOfMonth(1).plusMonths(1) + ")");
    assertThatThrownBy(() -> SliceResolver.resolve("s.finer", loaded, "d", day.toString()))
        .hasMessageContaining("older partition spec");
  }

  @Test
  void aDayRunWaitingOnAnAuditBranchKeepsTheMonthThePlanNamesForItOpen() {
    MaintenanceCatalog t = tables();
    Table table = monthThenDay(t, "s.audited");
    LocalDate runDay = day.plusDays(15);
    t.files(table, runDay, 6, 3);
    table.manageSnapshots().createBranch("audit-r1", table.currentSnapshot().snapshotId()).commit();
    table
        .newAppend()
        .appendFile(
            TableRows.write(
                table, TableRows.row(table, Map.of("id", 999L, "amount", 1L, "d", runDay))))
        .set(LineageKeys.SLICE, "d=[" + runDay + "," + runDay.plusDays(1) + ")")
        .toBranch("audit-r1")
        .commit();

    MaintenancePlan plan = planAll(false);

    assertThat(items(plan, PlanAction.COMPACT, "s.audited")).isEmpty();
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(
            left -> {
              assertThat(left.item().slice()).contains("d=" + runDay.toString().substring(0, 7));
              assertThat(left.reason())
                  .isEqualTo(
                      "a run of d=["
                          + runDay
                          + ","
                          + runDay.plusDays(1)
                          + ") waits on audit branch audit-r1 (--include-open plans it)");
            });
  }

  @Test
  void aSliceThatFilesOfAnOlderUnpartitionedSpecHoldIsLeftOutWithTheSliceFlagsRefusal() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.unpartitioned");
    table.updateSpec().removeField("d").commit();
    table.refresh();
    t.files(table, day, 2, 3);
    table.updateSpec().addField(org.apache.iceberg.expressions.Expressions.day("d")).commit();
    table.refresh();
    t.files(table, day, 6, 3);

    MaintenancePlan plan = planAll(false);

    assertThat(items(plan, PlanAction.COMPACT, "s.unpartitioned")).isEmpty();
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(
            left -> {
              assertThat(left.item().slice()).contains("d=" + day);
              assertThat(left.reason())
                  .startsWith("Cannot use --slice " + day + " on s.unpartitioned: files written")
                  .contains("older partition spec [] (unpartitioned)")
                  .contains("first: replace the whole table once (a job of mode swap;");
            });
  }

  @Test
  void aSortTableWhoseFilesOverlapOnTheSortKeyIsPlannedThoughTooFewAreSmall() {
    MaintenanceCatalog t = tables();
    // Two files each (below min_input_files 5): ids {1, 10} and {5, 20} overlap, {1, 2} and
    // {3, 4} do not.
    Table overlapping =
        sortTable(t, "s.overlapping", "sort", new long[] {1, 10}, new long[] {5, 20});
    Table disjoint = sortTable(t, "s.disjoint", "sort", new long[] {1, 2}, new long[] {3, 4});
    Table binpack = sortTable(t, "s.binpack", "binpack", new long[] {1, 10}, new long[] {5, 20});

    MaintenancePlan plan = planAll(false);

    assertThat(plan.items())
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.table()).isEqualTo("s.overlapping");
              assertThat(item.slice()).contains("d=" + day);
              assertThat(item.score()).isPositive();
              assertThat(String.join("; ", item.reasons()))
                  .contains("1 partition(s) whose 2 files overlap on sort column id")
                  .contains("rows ordered by the table's sort order")
                  .doesNotContain("for now");
            });
    assertThat(List.of(overlapping, disjoint, binpack)).allMatch(x -> x.sortOrder().isSorted());
  }

  private Table sortTable(MaintenanceCatalog t, String name, String strategy, long[]... files) {
    Table table = t.table(name);
    table.replaceSortOrder().asc("id").commit();
    t.set(table, Map.of(MaintenancePolicy.STRATEGY, strategy));
    org.apache.iceberg.AppendFiles append = table.newAppend();
    for (long[] ids : files) {
      List<org.apache.iceberg.data.Record> rows = new ArrayList<>();
      for (long id : ids) {
        rows.add(
            dev.floe.catalog.testing.TableRows.row(
                table, Map.of("id", id, "amount", id, "d", day)));
      }
      append.appendFile(
          dev.floe.catalog.testing.TableRows.write(
              table, rows.toArray(org.apache.iceberg.data.Record[]::new)));
    }
    append.commit();
    return table;
  }

  @Test
  void aTableWithGcDisabledGetsItsCompactionPlannedButNoOrphanRemoval() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.gc_off");
    t.set(table, Map.of("gc.enabled", "false"));
    t.files(table, day, 6, 2);
    t.uncommitted(table, day.plusDays(1), Duration.ofDays(30));

    MaintenancePlan plan = planAll(false);

    assertThat(plan.items())
        .as("%s %s %s", plan.health(), plan.leftOut(), plan.unreadable())
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.action()).isEqualTo(PlanAction.COMPACT);
              assertThat(item.slice()).contains("d=" + day);
            });
    assertThat(plan.leftOut()).isEmpty();
  }

  @Test
  void aYear9999PartitionIsLeftOutAndTheOtherSlicesArePlanned() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.sentinel");
    t.files(table, day, 6, 2);
    t.files(table, LocalDate.of(9999, 12, 31), 6, 2);

    MaintenancePlan plan = planAll(true);

    // `--slice 9999-12-31` is refused (its end is past what SQL can write): never planned.
    assertThat(plan.items())
        .singleElement()
        .satisfies(item -> assertThat(item.slice()).contains("d=" + day));
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(left -> assertThat(left.reason()).contains("a year outside 0001 to 9998"));
  }

  @Test
  void monthsBefore1970AndTheFirstTwoFromItAreLeftOutBecauseCompactionCouldNeverRewriteThem() {
    MaintenanceCatalog t = tables();
    Table byMonth = t.table("s.months");
    byMonth
        .updateSpec()
        .removeField("d")
        .addField(org.apache.iceberg.expressions.Expressions.month("d"))
        .commit();
    byMonth.refresh();
    t.files(byMonth, LocalDate.of(1965, 3, 10), 6, 2);
    t.files(byMonth, LocalDate.of(1970, 1, 10), 6, 2);
    t.files(byMonth, LocalDate.of(1970, 2, 10), 6, 2);
    t.files(byMonth, LocalDate.of(1970, 3, 10), 6, 2);
    Table byDay = t.table("s.days");
    t.files(byDay, LocalDate.of(1965, 3, 10), 6, 2);

    MaintenancePlan plan = planAll(true);

    // Iceberg's strict projection of a month before 1970, and of 1970-01 and 1970-02, is
    // inexact: a compaction of d=1965-03 keeps every file. An identity partition on the date stays
    // exact, so its day is planned.
    assertThat(items(plan, PlanAction.COMPACT, "s.months"))
        .singleElement()
        .satisfies(item -> assertThat(item.slice()).contains("d=1970-03"));
    assertThat(items(plan, PlanAction.COMPACT, "s.days"))
        .singleElement()
        .satisfies(item -> assertThat(item.slice()).contains("d=1965-03-10"));
    assertThat(plan.leftOut())
        .singleElement()
        .satisfies(
            left -> {
              assertThat(left.item().table()).isEqualTo("s.months");
              assertThat(left.reason()).contains("before 1970");
            });
  }

  @Test
  void aMinInputFilesPropertyOfOneMakesTheTableUnreadableNotAPlanThatNeverEnds() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.one");
    t.set(table, Map.of(MaintenancePolicy.MIN_INPUT_FILES, "1"));
    t.files(table, day, 1, 3);
    t.files(table, day.plusDays(1), 2, 3);

    MaintenancePlan plan = planAll(false);

    // A day with one small file would be "compacted" into one file on every apply.
    assertThat(plan.items()).isEmpty();
    assertThat(plan.unreadable()).containsOnlyKeys("s.one");
    assertThat(plan.unreadable().get("s.one"))
        .contains(MaintenancePolicy.MIN_INPUT_FILES + "=1: expected at least 2");
  }

  @Test
  void selectingByNamespaceListsOnlyItsTables() {
    MaintenanceCatalog t = tables();
    t.table("a.one");
    t.table("a.two");
    t.table("b.three");

    assertThat(MaintenancePlanner.select(catalog.catalog(), List.of(), false, "a"))
        .containsExactly("a.one", "a.two");
    assertThat(MaintenancePlanner.select(catalog.catalog(), List.of(), true, null)).hasSize(3);
  }

  private static List<PlanItem> items(MaintenancePlan plan, PlanAction action, String prefix) {
    List<PlanItem> out = new ArrayList<>();
    for (PlanItem item : plan.items()) {
      if (item.action() == action && item.table().startsWith(prefix)) {
        out.add(item);
      }
    }
    return out;
  }

  private static PlanItem item(MaintenancePlan plan, String table, PlanAction action) {
    Optional<PlanItem> found =
        plan.items().stream()
            .filter(i -> i.table().equals(table) && i.action() == action)
            .findFirst();
    assertThat(found).as("%s of %s in %s", action, table, plan.items()).isPresent();
    return found.get();
  }

  private static TableHealth health(MaintenancePlan plan, String table) {
    return plan.health().stream().filter(h -> h.table().equals(table)).findFirst().orElseThrow();
  }

  private static long smallFiles(MaintenancePlan plan, String table) {
    return health(plan, table).smallFiles();
  }
}
