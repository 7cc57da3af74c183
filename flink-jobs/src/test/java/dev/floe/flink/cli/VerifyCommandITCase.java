package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe verify` as an operator runs it, on the example tables and jobs. */
class VerifyCommandITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "sales.fact_orders";

  @TempDir Path home;
  private String job;

  @BeforeEach
  void exampleTablesAndStaging() {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    CliRun sql =
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03'),"
                + " (2, 11, 20.00, DATE '2026-10-03')");
    assertThat(sql.exitCode()).as(sql.err()).isZero();
    job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
  }

  @Test
  void aReproducibleSliceExitsZeroAndSaysWhetherMainMatches() throws Exception {
    CliRun before = floe(home, "verify", job, "--slice", "2026-10-03");

    assertThat(before.exitCode()).as(before.err()).isZero();
    assertThat(before.out())
        .contains("fact_orders_daily  sales.fact_orders  order_date=[2026-10-03,2026-10-04)")
        .containsPattern("run 1 +2:[0-9a-f]{32}  2 rows  snapshot \\d+ \\(branch scratch-")
        .containsPattern("main +0:0{32}  0 rows  snapshot null")
        .contains(
            "result    reproducible",
            "main      differs from the runs: a rerun of this slice would replace")
        .contains("only in run 1: 2 rows:", "order_id=1, customer_id=10, amount=50.00");

    CliRun run = floe(home, "run", job, "--slice", "2026-10-03");
    assertThat(run.exitCode()).as(run.err()).isZero();
    List<Long> snapshots = withTable(VerifyCommandITCase::snapshotIds);

    CliRun after = floe(home, "verify", job, "--slice", "2026-10-03", "--json");

    assertThat(after.exitCode()).as(after.err()).isZero();
    JsonNode json = JSON.readTree(after.out());
    assertThat(json.get("status").asText()).isEqualTo("reproducible");
    assertThat(json.get("exit_code").asInt()).isZero();
    assertThat(json.has("error")).isFalse();
    assertThat(json.get("reproducible").asBoolean()).isTrue();
    assertThat(json.get("main_matches").asBoolean()).isTrue();
    String mainHash = json.get("main").get("content_hash").asText();
    assertThat(mainHash).startsWith("2:");
    assertThat(json.get("runs")).hasSize(2);
    for (JsonNode scratch : json.get("runs")) {
      assertThat(scratch.get("content_hash").asText()).isEqualTo(mainHash);
      assertThat(scratch.get("status").asText()).isEqualTo("committed");
      assertThat(scratch.get("branch").asText()).startsWith("scratch-");
    }
    assertThat(json.get("run_difference").isNull()).isTrue();
    assertThat(withTable(VerifyCommandITCase::snapshotIds)).isEqualTo(snapshots);
    CliRun tags = floe(home, "tags", TABLE, "--json");
    assertThat(JSON.readTree(tags.out()))
        .singleElement()
        .satisfies(ref -> assertThat(ref.get("name").asText()).isEqualTo("main"));
  }

  @Test
  void aNondeterministicQueryExitsThreeWithTheColumnAndSampleRows() throws Exception {
    Path random = home.resolve("random.yaml");
    Files.writeString(
        random,
        Files.readString(Path.of(job))
                .replace(
                    "SELECT order_id, customer_id, amount, order_date",
                    "SELECT order_id, customer_id, CAST(RAND() * 1000 AS DECIMAL(10, 2)) AS"
                        + " amount, order_date")
            + "allow_nondeterministic: true\n");

    CliRun verify = floe(home, "verify", random.toString(), "--slice", "2026-10-03");

    assertThat(verify.exitCode()).isEqualTo(3);
    assertThat(verify.out())
        .contains("result    NOT reproducible", "columns   amount")
        .contains("only in run 1: 2 rows:", "only in run 2: 2 rows:")
        .containsPattern("order_id=1, customer_id=10, amount=\\d+\\.\\d\\d, order_date=2026-10-03");
    assertThat(verify.err())
        .contains("floe: Cannot verify fact_orders_daily for order_date=[2026-10-03,2026-10-04)")
        .contains("columns that differ: amount");

    // --json says it as every command's does: status, exit code and the error line.
    CliRun json = floe(home, "verify", random.toString(), "--slice", "2026-10-03", "--json");

    assertThat(json.exitCode()).isEqualTo(3);
    JsonNode failed = JSON.readTree(json.out());
    assertThat(failed.get("status").asText()).isEqualTo("failed");
    assertThat(failed.get("exit_code").asInt()).isEqualTo(3);
    assertThat(failed.get("error").asText())
        .startsWith("Cannot verify fact_orders_daily for order_date=[2026-10-03,2026-10-04)");
    assertThat(failed.get("reproducible").asBoolean()).isFalse();
    java.util.Set<String> refs = withTable(t -> t.refs().keySet());
    assertThat(refs).isEmpty();
  }

  @Test
  void theSliceIsRequiredOrRefusedExactlyAsForRunAndTagsMarkScratchBranches() throws Exception {
    String merge = examples().resolve("jobs/dim_customer_merge.yaml").toString();

    CliRun sliced = floe(home, "verify", merge, "--slice", "2026-10-03");
    CliRun unsliced = floe(home, "verify", job);
    CliRun runSliced = floe(home, "run", merge, "--slice", "2026-10-03");
    CliRun publishScratch = floe(home, "run", job, "--slice", "2026-10-03", "--publish", "scratch");

    assertThat(sliced.exitCode()).isEqualTo(2);
    assertThat(sliced.err())
        .contains("with --slice 2026-10-03: the manifest has no slice")
        .isEqualTo(runSliced.err());
    assertThat(unsliced.exitCode()).isEqualTo(2);
    assertThat(unsliced.err()).contains("missing --slice");
    assertThat(publishScratch.exitCode()).isEqualTo(2);
    assertThat(publishScratch.err()).contains("expected auto or manual");

    withTable(
        t -> {
          org.apache.iceberg.DataFile file =
              org.apache.iceberg.DataFiles.builder(t.spec())
                  .withPath(t.location() + "/data/x.parquet")
                  .withFileSizeInBytes(1)
                  .withRecordCount(1)
                  .withPartitionPath("order_date=2026-10-03")
                  .build();
          t.newAppend().appendFile(file).toBranch("scratch-left-behind").commit();
          return null;
        });
    CliRun tags = floe(home, "tags", TABLE, "--json");
    CliRun text = floe(home, "tags", TABLE);
    assertThat(tags.exitCode()).as(tags.err()).isZero();
    assertThat(JSON.readTree(tags.out()))
        .singleElement()
        .satisfies(ref -> assertThat(ref.get("role").asText()).isEqualTo("scratch"));
    assertThat(text.out()).contains("scratch-left-behind", "scratch branch of floe verify");
  }

  private static List<Long> snapshotIds(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .toList();
  }

  private <T> T withTable(Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, TABLE));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
