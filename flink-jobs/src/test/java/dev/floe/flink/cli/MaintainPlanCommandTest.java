package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code floe maintain --plan / --apply} as an operator types them, on a real embedded catalog: the
 * plan changes nothing, apply under a budget does only the top items and a second apply continues,
 * a crash leaves each table old or new, a healthy catalog is a no-op.
 */
class MaintainPlanCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private final LocalDate day = MaintenanceCatalog.OLD_DAY;

  private MaintenanceCatalog tables() {
    return new MaintenanceCatalog(catalog, Instant.now());
  }

  @Test
  void planRanksTheCatalogPrintsWhyAndChangesNothing() throws Exception {
    MaintenanceCatalog t = tables();
    t.history(t.table("a.history"), day, 8);
    t.files(t.table("a.small"), day, 8, 2);
    Table orphans = t.table("b.orphans");
    t.files(orphans, day, 1, 2);
    t.uncommitted(orphans, day, Duration.ofDays(10));
    t.files(t.table("b.healthy"), day, 1, 2);
    Map<String, String> before = metadataLocations();

    CliRun text = floe(catalog.home(), "maintain", "--plan", "--all");
    CliRun json = floe(catalog.home(), "maintain", "--plan", "--namespace", "a", "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("maintenance plan: 3 item(s) for 4 table(s)")
        .contains("why: 8 small files")
        .contains("expire", "orphans", "compact")
        .doesNotContain("b.healthy");
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode items = JSON.readTree(json.out()).get("items");
    // Milliseconds at most, as every instant Floe prints (the system clock has nanoseconds).
    assertThat(JSON.readTree(json.out()).get("as_of").asText())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d{1,3})?)?Z");
    assertThat(items).hasSize(2);
    assertThat(items.get(0).get("score").asLong())
        .isGreaterThanOrEqualTo(items.get(1).get("score").asLong());
    assertThat(metadataLocations()).isEqualTo(before);
  }

  @Test
  void applyUnderABudgetDoesOnlyTheTopItemsAndASecondApplyContinues() throws Exception {
    MaintenanceCatalog t = tables();
    t.history(t.table("s.h9"), day, 9);
    t.history(t.table("s.h6"), day, 6);
    Table orphans = t.table("s.orphans");
    t.files(orphans, day, 1, 2);
    t.uncommitted(orphans, day, Duration.ofDays(10));
    t.uncommitted(orphans, day, Duration.ofDays(10));
    List<String> ranked = plannedTables();
    assertThat(ranked).hasSize(3);

    CliRun first =
        floe(catalog.home(), "maintain", "--apply", "--all", "--max-tables", "1", "--json");
    List<String> afterFirst = plannedTables();
    CliRun second = floe(catalog.home(), "maintain", "--apply", "--all", "--max-tables", "1");
    List<String> afterSecond = plannedTables();
    CliRun third = floe(catalog.home(), "maintain", "--apply", "--all");
    List<String> afterThird = plannedTables();

    assertThat(first.exitCode()).as(first.err()).isZero();
    JsonNode items = JSON.readTree(first.out()).get("items");
    assertThat(items.get(0).get("status").asText()).isEqualTo("done");
    assertThat(items.get(1).get("status").asText()).isEqualTo("not started");
    assertThat(items.get(1).get("detail").asText()).contains("--max-tables 1");
    // Only the top-ranked table was maintained; the next apply continues with the next one.
    assertThat(afterFirst).isEqualTo(ranked.subList(1, 3));
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out()).contains("1 done", "1 not started");
    assertThat(afterSecond).isEqualTo(ranked.subList(2, 3));
    assertThat(third.exitCode()).as(third.err()).isZero();
    assertThat(afterThird).isEmpty();
  }

  @Test
  void anInjectedCrashLeavesEachTableOldOrNewAndTheRerunFinishes() throws Exception {
    MaintenanceCatalog t = tables();
    t.files(t.table("s.small"), day, 6, 2);
    t.history(t.table("s.history"), day, 6);
    ContentHash smallBefore = hash("s.small");
    ContentHash historyBefore = hash("s.history");
    String smallMetadata = metadataLocations().get("s.small");

    CliRun crashed =
        floe(catalog.home(), "maintain", "--apply", "--all", "--inject-failure", "BEFORE_COMMIT");
    Map<String, String> afterCrash = metadataLocations();
    ContentHash smallAfterCrash = hash("s.small");
    ContentHash historyAfterCrash = hash("s.history");
    CliRun rerun = floe(catalog.home(), "maintain", "--apply", "--all");

    // The compaction failed and left its table as it was; the other table was still maintained.
    assertThat(crashed.exitCode()).as(crashed.out()).isNotZero();
    assertThat(crashed.out()).contains("failed", "1 done");
    assertThat(afterCrash.get("s.small")).isEqualTo(smallMetadata);
    assertThat(smallAfterCrash).isEqualTo(smallBefore);
    assertThat(historyAfterCrash).isEqualTo(historyBefore);
    assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
    assertThat(rerun.out()).contains("1 done");
    assertThat(hash("s.small")).isEqualTo(smallBefore);
    assertThat(catalog.load("s.small").currentSnapshot().operation()).isEqualTo("replace");
    assertThat(plannedTables()).isEmpty();
  }

  @Test
  void aHealthyCatalogGivesAnEmptyPlanAndANoOpApply() {
    MaintenanceCatalog t = tables();
    for (int i = 0; i < 4; i++) {
      t.files(t.table("s.t" + i), day.plusDays(i), 1, 3);
    }
    Map<String, String> before = metadataLocations();

    CliRun plan = floe(catalog.home(), "maintain", "--plan", "--all");
    CliRun apply = floe(catalog.home(), "maintain", "--apply", "--all");

    assertThat(plan.exitCode()).isZero();
    assertThat(plan.out()).contains("0 item(s) for 4 table(s)", "nothing to do");
    assertThat(apply.exitCode()).isZero();
    assertThat(apply.out()).contains("0 done", "nothing to do");
    assertThat(metadataLocations()).isEqualTo(before);
  }

  @Test
  void compactWithoutSliceTakesTheSlicesThePolicyPicks() {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.t");
    t.files(table, day, 6, 2);
    t.files(table, day.plusDays(1), 2, 2);

    CliRun dryRun = floe(catalog.home(), "maintain", "s.t", "--compact", "--dry-run");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains(day.toString(), "would compact")
        .doesNotContain(day.plusDays(1).toString());
  }

  @Test
  void compactWithNothingToCompactKeepsStdoutOneJsonObjectWithJson() throws Exception {
    MaintenanceCatalog t = tables();
    t.files(t.table("s.t"), day, 1, 3);

    CliRun json = floe(catalog.home(), "maintain", "s.t", "--compact", "--json");
    CliRun refused =
        floe(
            catalog.home(),
            "maintain",
            "s.t",
            "--compact",
            "--orphans",
            "--orphan-min-age",
            "PT1M",
            "--json",
            "--dry-run");

    assertThat(json.exitCode()).as(json.err()).isZero();
    assertThat(JSON.readTree(json.out()).get("actions")).isEmpty();
    assertThat(json.err()).contains("compact: no slice of s.t needs compaction");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(JSON.readTree(refused.out()).get("status").asText()).isEqualTo("failed");
  }

  @Test
  void planAndApplyPrintWhatCouldNotBeReadOfATableInTextAndJson() throws Exception {
    MaintenanceCatalog t = tables();
    Table unlisted = t.table("w.unlisted");
    t.set(unlisted, Map.of(dev.floe.catalog.spec.MaintenancePolicy.ORPHAN_MIN_AGE, "PT10M"));
    t.files(unlisted, day, 6, 2);
    t.uncommitted(unlisted, day, Duration.ZERO);
    ContentHash before = hash("w.unlisted");

    CliRun plan = floe(catalog.home(), "maintain", "--plan", "--all");
    CliRun planJson = floe(catalog.home(), "maintain", "--plan", "--all", "--json");
    CliRun apply = floe(catalog.home(), "maintain", "--apply", "--all");
    CliRun applyJson = floe(catalog.home(), "maintain", "--apply", "--all", "--json");

    for (CliRun text : List.of(plan, apply)) {
      assertThat(text.exitCode()).as(text.err()).isZero();
      assertThat(text.out())
          .contains("problems (1 table(s) only partly read):")
          .contains("w.unlisted: orphans unknown:")
          .contains("state unknown");
    }
    for (CliRun json : List.of(planJson, applyJson)) {
      assertThat(json.exitCode()).as(json.err()).isZero();
      JsonNode root = JSON.readTree(json.out());
      assertThat(root.get("problems").get("w.unlisted").get(0).asText()).contains("PT10M");
      assertThat(root.get("items")).isEmpty();
    }
    assertThat(hash("w.unlisted")).isEqualTo(before);
  }

  @Test
  void compactWithASliceUsesThePolicyTargetFileSize() throws Exception {
    MaintenanceCatalog t = tables();
    Table table = t.table("s.t");
    long policyTarget = 3L << 20;
    t.set(
        table,
        Map.of(
            dev.floe.catalog.spec.MaintenancePolicy.TARGET_FILE_SIZE,
            String.valueOf(policyTarget)));
    t.files(table, day, 6, 2);

    CliRun slice =
        floe(
            catalog.home(),
            "maintain",
            "s.t",
            "--compact",
            "--slice",
            "d=" + day,
            "--dry-run",
            "--json");
    CliRun override =
        floe(
            catalog.home(),
            "maintain",
            "s.t",
            "--compact",
            "--slice",
            "d=" + day,
            "--target-file-size",
            String.valueOf(2L << 20),
            "--dry-run",
            "--json");

    assertThat(slice.exitCode()).as(slice.err()).isZero();
    assertThat(JSON.readTree(slice.out()).findValue("target_file_size_bytes").asLong())
        .isEqualTo(policyTarget);
    assertThat(override.exitCode()).as(override.err()).isZero();
    assertThat(JSON.readTree(override.out()).findValue("target_file_size_bytes").asLong())
        .isEqualTo(2L << 20);
  }

  @Test
  void applyJsonExitCodeIsTheProcessExitCodeWhenATableCannotBeRead() throws Exception {
    MaintenanceCatalog t = tables();
    t.set(
        t.table("s.bad"), Map.of(dev.floe.catalog.spec.MaintenancePolicy.MIN_INPUT_FILES, "many"));
    t.files(t.table("s.small"), day, 6, 2);

    CliRun apply = floe(catalog.home(), "maintain", "--apply", "--all", "--json");

    assertThat(apply.exitCode()).as(apply.err()).isEqualTo(2);
    JsonNode root = JSON.readTree(apply.out());
    assertThat(root.get("exit_code").asInt()).isEqualTo(apply.exitCode());
    assertThat(root.get("unreadable").has("s.bad")).isTrue();
    assertThat(apply.err()).contains("floe: Cannot ").contains("s.bad");
  }

  @Test
  void aPlanWithATableThatCannotBeReadSaysSoOnStderrAndInItsExitCode() throws Exception {
    tables();

    CliRun text = floe(catalog.home(), "maintain", "--plan", "s.nosuch");
    CliRun json = floe(catalog.home(), "maintain", "--plan", "s.nosuch", "--json");

    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.out())
        .contains("nothing to do in the tables read")
        .doesNotContain("every table is within its policy");
    assertThat(text.err()).startsWith("floe: Cannot load table s.nosuch: it does not exist");
    assertThat(json.exitCode()).isEqualTo(2);
    assertThat(JSON.readTree(json.out()).get("exit_code").asInt()).isEqualTo(2);
    assertThat(json.err()).startsWith("floe: Cannot load table s.nosuch");
  }

  @Test
  void applyDryRunShowsWhatTheBudgetLeavesOutAndChangesNothing() throws Exception {
    MaintenanceCatalog t = tables();
    t.files(t.table("s.t0"), day, 8, 2);
    t.files(t.table("s.t1"), day, 6, 2);
    Map<String, String> before = metadataLocations();

    CliRun text =
        floe(catalog.home(), "maintain", "--apply", "--all", "--max-tables", "1", "--dry-run");
    CliRun json =
        floe(
            catalog.home(),
            "maintain",
            "--apply",
            "--all",
            "--max-tables",
            "1",
            "--dry-run",
            "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("outside the budget, left for a later --apply (1):")
        .contains("--max-tables 1 reached");
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode outside = JSON.readTree(json.out()).get("outside_budget");
    assertThat(outside).hasSize(1);
    assertThat(outside.get(0).get("table").asText()).isEqualTo("s.t1");
    assertThat(metadataLocations()).isEqualTo(before);
  }

  @Test
  void planAndApplyRefuseTheManualFlagsAndAMissingSelection() {
    tables().table("s.t");

    CliRun both = floe(catalog.home(), "maintain", "--plan", "--apply", "--all");
    CliRun withAction = floe(catalog.home(), "maintain", "--apply", "--all", "--expire");
    CliRun nothing = floe(catalog.home(), "maintain", "--plan");
    CliRun budgetOnPlan = floe(catalog.home(), "maintain", "--plan", "--all", "--max-tables", "2");

    assertThat(List.of(both, withAction, nothing, budgetOnPlan))
        .allSatisfy(run -> assertThat(run.exitCode()).isEqualTo(2));
    assertThat(withAction.err())
        .contains(
            "Cannot use --compact, --rewrite-position-deletes, --rewrite-manifests, --expire,"
                + " --orphans with --plan or --apply: the plan chooses the actions\n");
    assertThat(nothing.err()).contains("give TABLE names, --namespace NS or --all");
  }

  /** The tables the plan would touch now, in rank order of their first item. */
  private List<String> plannedTables() throws Exception {
    CliRun plan = floe(catalog.home(), "maintain", "--plan", "--all", "--json");
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    List<String> tables = new ArrayList<>();
    for (JsonNode item : JSON.readTree(plan.out()).get("items")) {
      if (!tables.contains(item.get("table").asText())) {
        tables.add(item.get("table").asText());
      }
    }
    return tables;
  }

  private ContentHash hash(String table) {
    return TableContent.hash(catalog.load(table));
  }

  private Map<String, String> metadataLocations() {
    Map<String, String> locations = new LinkedHashMap<>();
    for (String name :
        List.of(
            "a.history",
            "a.small",
            "b.orphans",
            "b.healthy",
            "s.small",
            "s.history",
            "s.t0",
            "s.t1",
            "s.t2",
            "s.t3")) {
      try {
        Table table = catalog.load(name);
        locations.put(
            name, ((HasTableOperations) table).operations().current().metadataFileLocation());
      } catch (RuntimeException e) {
        // not part of this test's catalog
      }
    }
    return locations;
  }
}
