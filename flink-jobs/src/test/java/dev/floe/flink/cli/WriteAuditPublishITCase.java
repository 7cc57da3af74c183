package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Publish;
import dev.floe.catalog.snapshot.PublishPlan;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.run.PublishMode;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-audit-publish as an operator drives it: `floe run --publish manual` leaves main alone and
 * commits to audit-<run-id>; `floe publish` fast-forwards or cherry-picks; `floe discard` drops.
 * Real Flink runs of the example job on the embedded catalog.
 */
class WriteAuditPublishITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "sales.fact_orders";

  @TempDir Path home;
  private String job;

  @BeforeEach
  void exampleTablesAndStaging() {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    staging("(1, 10, 50.00, DATE '2026-10-03'), (2, 11, 20.00, DATE '2026-10-03')");
    job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
  }

  @Test
  void anAuditedRunReachesMainOnlyWhenPublishedAndItsRerunIsANoOp() throws Exception {
    JsonNode audited = run("2026-10-03", "--publish", "manual");
    String runId = audited.get("run_id").asText();
    String branch = "audit-" + runId;

    assertThat(audited.get("status").asText()).isEqualTo("committed");
    assertThat(audited.get("branch").asText()).isEqualTo(branch);
    assertThat(count("")).isEqualTo("0");
    assertThat(count("/*+ OPTIONS('branch'='" + branch + "') */")).isEqualTo("2");
    ContentHash onBranch =
        withTable(t -> TableContent.hash(t, t.refs().get(branch).snapshotId(), all()));

    CliRun dryRun = floe(home, "publish", TABLE, "--run", runId, "--dry-run");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains("would publish run " + runId, "fast-forwarding main")
        .containsPattern("order_date=2026-10-03\\s+-0\\s+\\+2");
    assertThat(count("")).isEqualTo("0");

    CliRun publish = floe(home, "publish", TABLE, "--run", runId);
    assertThat(publish.exitCode()).as(publish.err()).isZero();
    assertThat(publish.out()).contains("published run " + runId, "removed branch " + branch);
    assertThat(hash(all())).isEqualTo(onBranch);
    assertThat(refs()).doesNotContain(branch);

    CliRun again = floe(home, "publish", TABLE, "--run", runId);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("is already on main");
    JsonNode rerun = run("2026-10-03", "--publish", "manual");
    assertThat(rerun.get("status").asText()).isEqualTo("no-op");
    assertThat(rerun.get("branch").isNull()).as("no branch to publish after a no-op").isTrue();
    assertThat(refs()).noneMatch(ref -> ref.startsWith("audit-"));
  }

  @Test
  void publishCherryPicksOverAnotherSliceAndRefusesASliceMainChanged() throws Exception {
    staging(
        "(1, 10, 50.00, DATE '2026-10-03'), (3, 12, 75.00, DATE '2026-10-04'),"
            + " (4, 13, 5.00, DATE '2026-10-05')");
    String day4 = run("2026-10-04", "--publish", "manual").get("run_id").asText();
    String day5 = run("2026-10-05", "--publish", "manual").get("run_id").asText();
    run("2026-10-03");
    staging("(1, 10, 50.00, DATE '2026-10-03'), (5, 14, 6.00, DATE '2026-10-05')");
    run("2026-10-05"); // main now holds other rows for the day run `day5` audited
    ContentHash day3 = hash(day("2026-10-03"));
    ContentHash day5Main = hash(day("2026-10-05"));

    CliRun preview = floe(home, "publish", TABLE, "--run", day4, "--dry-run");
    CliRun pick = floe(home, "publish", TABLE, "--run", day4, "--json");
    CliRun refused = floe(home, "publish", TABLE, "--run", day5);

    assertThat(pick.exitCode()).as(pick.err()).isZero();
    assertThat(JSON.readTree(pick.out()).get("method").asText()).isEqualTo("cherry-pick");
    assertThat(preview.out())
        .contains("would publish run " + day4)
        .contains("; no row of the slice changed there)");
    assertThat(hash(day("2026-10-03"))).isEqualTo(day3);
    assertThat(hash(day("2026-10-04")).rows()).isEqualTo(1);
    assertThat(headSummary()).containsEntry(LineageKeys.RUN_ID, day4);
    assertThat(refused.exitCode()).isEqualTo(4);
    assertThat(refused.err())
        .contains("Cannot publish run " + day5, "slice order_date=[2026-10-05,2026-10-06)");
    assertThat(hash(day("2026-10-05"))).isEqualTo(day5Main);

    CliRun discard = floe(home, "discard", TABLE, "--run", day5);
    CliRun discardAgain = floe(home, "discard", TABLE, "--run", day5, "--json");

    assertThat(discard.exitCode()).as(discard.err()).isZero();
    assertThat(discard.out()).contains("dropped branch audit-" + day5, "main is unchanged");
    assertThat(hash(day("2026-10-05"))).isEqualTo(day5Main);
    assertThat(discardAgain.exitCode()).as(discardAgain.err()).isZero();
    assertThat(JSON.readTree(discardAgain.out()).get("status").asText())
        .isEqualTo("nothing-to-discard");
    assertThat(hash(day("2026-10-05"))).isEqualTo(day5Main);
    CliRun discardPublished = floe(home, "discard", TABLE, "--run", day4);
    assertThat(discardPublished.exitCode()).isEqualTo(2);
    assertThat(discardPublished.err())
        .contains("Cannot discard run " + day4 + " of " + TABLE + ": main holds it in snapshot ");
  }

  @Test
  void aRetriedPublishOfARunMainAlreadyHeldTheContentOfSaysSoAndExitsZero() throws Exception {
    String runId = run("2026-10-03", "--publish", "manual").get("run_id").asText();
    run("2026-10-03"); // the same job on the same data, straight to main
    ContentHash onMain = hash(all());

    CliRun publish = floe(home, "publish", TABLE, "--run", runId);
    CliRun retry = floe(home, "publish", TABLE, "--run", runId);
    CliRun retryJson = floe(home, "publish", TABLE, "--run", runId, "--json");

    assertThat(publish.exitCode()).as(publish.err()).isZero();
    assertThat(publish.out()).contains("nothing to publish; removed branch audit-" + runId);
    assertThat(retry.exitCode()).as(retry.err()).isZero();
    assertThat(retry.out())
        .contains(
            "already holds run " + runId + "'s content",
            "its audit branch audit-" + runId + " was removed earlier");
    assertThat(retryJson.exitCode()).as(retryJson.err()).isZero();
    JsonNode json = JSON.readTree(retryJson.out());
    assertThat(json.get("method").asText()).isEqualTo("already-identical");
    assertThat(json.get("branch").isNull()).isTrue();
    assertThat(hash(all())).isEqualTo(onMain);
  }

  @Test
  void theJavaApiPublishesAnAuditedDimensionMerge() throws Exception {
    CliRun seed =
        floe(home, "sql", "-f", examples().resolve("sql/seed_staging_customer.sql").toString());
    assertThat(seed.exitCode()).as(seed.err()).isZero();
    RunResult merge =
        SliceJob.run(
            RunRequest.of(
                    CatalogConfigLoader.embedded(home),
                    JobSpecParser.load(examples().resolve("jobs/dim_customer_merge.yaml")),
                    null)
                .withOptions(o -> o.publish(PublishMode.MANUAL)));
    String runId = merge.runId();
    assertThat(merge.branch()).isEqualTo("audit-" + runId);
    assertThat(this.<Object>withTable("sales.dim_customer", Table::currentSnapshot)).isNull();

    PublishPlan plan =
        withTable(
            "sales.dim_customer", t -> Publish.of(t, "sales.dim_customer").run(runId).commit());

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    long rows = withTable("sales.dim_customer", t -> TableContent.hash(t).rows());
    assertThat(rows).isEqualTo(2);
  }

  private JsonNode run(String slice, String... extra) throws Exception {
    String[] args = new String[5 + extra.length];
    args[0] = "run";
    args[1] = job;
    args[2] = "--slice";
    args[3] = slice;
    System.arraycopy(extra, 0, args, 4, extra.length);
    args[args.length - 1] = "--json";
    CliRun run = floe(home, args);
    assertThat(run.exitCode()).as(run.err()).isZero();
    return JSON.readTree(run.out());
  }

  private void staging(String values) {
    CliRun sql = floe(home, "sql", "INSERT OVERWRITE sales.staging_orders VALUES " + values);
    assertThat(sql.exitCode()).as(sql.err()).isZero();
  }

  private String count(String hint) throws Exception {
    CliRun sql = floe(home, "sql", "SELECT count(*) AS n FROM " + TABLE + " " + hint, "--json");
    assertThat(sql.exitCode()).as(sql.err()).isZero();
    return JSON.readTree(sql.out()).findValue("n").asText();
  }

  private ContentHash hash(Expression filter) {
    return withTable(t -> TableContent.hash(t, filter));
  }

  private java.util.Set<String> refs() {
    return withTable(t -> java.util.Set.copyOf(t.refs().keySet()));
  }

  private java.util.Map<String, String> headSummary() {
    return withTable(t -> t.currentSnapshot().summary());
  }

  private <T> T withTable(Function<Table, T> action) {
    return withTable(TABLE, action);
  }

  private <T> T withTable(String name, Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, name));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static Expression all() {
    return Expressions.alwaysTrue();
  }

  private static Expression day(String date) {
    return Expressions.equal("order_date", (int) LocalDate.parse(date).toEpochDay());
  }
}
