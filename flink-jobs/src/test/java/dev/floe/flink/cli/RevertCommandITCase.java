package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe revert` after real `floe run`s of the example job (Flink MiniCluster, embedded catalog), as
 * an operator drives it. One catalog for the class; the steps build on each other. Every claim is
 * checked by reading the table (content hashes, live file paths), never from lineage.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RevertCommandITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "sales.fact_orders";
  private static final String DAY3 = "2026-10-03";
  private static final String DAY4 = "2026-10-04";
  private static final String DAY5 = "2026-10-05";

  @TempDir static Path home;
  private static String job;

  @BeforeAll
  static void seedThreeDays() {
    job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    ok(floe(home, "tables", "apply", examples().resolve("tables").toString()));
    seedStaging();
  }

  /** The example's staging rows for 2026-10-03 and -04, plus one order on 2026-10-05. */
  private static void seedStaging() {
    ok(floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString()));
    addOrder("(5, 13, 12.50, DATE '2026-10-05')");
  }

  @Test
  @Order(1)
  void revertingTheMiddleOfThreeRunsEmptiesItsDayAndLeavesTheOtherTwoExactly() throws Exception {
    run(DAY3);
    ContentHash day4BeforeRun2 = checksum(day(DAY4));
    String run2 = run(DAY4).get("run_id").asText();
    run(DAY5);
    long head = head();
    ContentHash table = checksum(Expressions.alwaysTrue());
    ContentHash day3 = checksum(day(DAY3));
    ContentHash day5 = checksum(day(DAY5));
    Set<String> day3Files = files(day(DAY3));
    Set<String> day5Files = files(day(DAY5));

    CliRun dryRun = floe(home, "revert", TABLE, "--run", run2, "--dry-run");
    long headAfterDryRun = head();
    ContentHash tableAfterDryRun = checksum(Expressions.alwaysTrue());
    CliRun revert = floe(home, "revert", TABLE, "--run", run2);

    ok(dryRun);
    assertThat(dryRun.out())
        .contains("would revert run " + run2 + " of sales.fact_orders (job fact_orders_daily")
        .containsPattern("order_date=2026-10-04\\s+1 -> 0\\s+ changed");
    assertThat(headAfterDryRun).isEqualTo(head);
    assertThat(tableAfterDryRun).isEqualTo(table);
    ok(revert);
    assertThat(revert.out()).contains("new snapshot " + head(), "undo: floe revert " + TABLE);
    assertThat(day4BeforeRun2).isEqualTo(ContentHash.empty());
    assertThat(checksum(day(DAY4))).isEqualTo(day4BeforeRun2);
    assertThat(checksum(day(DAY3))).isEqualTo(day3);
    assertThat(checksum(day(DAY5))).isEqualTo(day5);
    assertThat(files(day(DAY3))).isEqualTo(day3Files);
    assertThat(files(day(DAY5))).isEqualTo(day5Files);
    ContentHash expected = ContentHash.empty();
    expected.merge(day3);
    expected.merge(day5);
    assertThat(checksum(Expressions.alwaysTrue())).isEqualTo(expected);
    assertThat(floe(home, "snapshots", TABLE).out()).contains("(reverts " + run2 + ")");
  }

  @Test
  @Order(2)
  void afterARevertTheRevertedRunsJobCommitsAgainAndAJobMatchingTheRestoredContentIsANoOp()
      throws Exception {
    ContentHash firstRun = checksum(day(DAY3));
    addOrder("(4, 14, 10.00, DATE '2026-10-03')");
    String correction = run(DAY3).get("run_id").asText();
    ContentHash corrected = checksum(day(DAY3));

    ok(floe(home, "revert", TABLE, "--run", correction));
    ContentHash afterRevert = checksum(day(DAY3));
    JsonNode rerun = run(DAY3);
    ContentHash afterRerun = checksum(day(DAY3));

    assertThat(corrected).isNotEqualTo(firstRun);
    assertThat(afterRevert).isEqualTo(firstRun);
    assertThat(rerun.get("status").asText()).isEqualTo("committed");
    assertThat(afterRerun).isEqualTo(corrected);

    // Back to the first run's content, then a job whose result is exactly that content.
    ok(floe(home, "revert", TABLE, "--run", rerun.get("run_id").asText()));
    long head = head();
    seedStaging(); // without order 4 again
    JsonNode same = run(DAY3);

    assertThat(checksum(day(DAY3))).isEqualTo(firstRun);
    assertThat(same.get("status").asText()).isEqualTo("no-op");
    assertThat(head()).isEqualTo(head);
  }

  @Test
  @Order(3)
  void aLaterRunOfTheSameDayBlocksTheRevertUntilForcedAndForceRestoresTheDay() throws Exception {
    ContentHash beforeFirst = checksum(day(DAY5));
    addOrder("(6, 15, 1.00, DATE '2026-10-05')");
    String first = run(DAY5).get("run_id").asText();
    addOrder("(7, 16, 2.00, DATE '2026-10-05')");
    JsonNode later = run(DAY5);
    long head = head();

    CliRun refused = floe(home, "revert", TABLE, "--run", first);
    long headAfterRefusal = head();
    CliRun forced = floe(home, "revert", TABLE, "--run", first, "--force", "--json");

    assertThat(later.get("status").asText()).isEqualTo("committed");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err())
        .contains("later commits changed slice order_date=[2026-10-05,2026-10-06)")
        .contains("run " + later.get("run_id").asText() + " (job fact_orders_daily");
    assertThat(headAfterRefusal).isEqualTo(head);
    ok(forced);
    JsonNode result = JSON.readTree(forced.out());
    assertThat(result.get("discarded").get(0).get("run_id").asText())
        .isEqualTo(later.get("run_id").asText());
    assertThat(checksum(day(DAY5))).isEqualTo(beforeFirst);
    assertThat(beforeFirst.rows()).isEqualTo(1);
  }

  private static void addOrder(String values) {
    ok(floe(home, "sql", "INSERT INTO sales.staging_orders VALUES " + values));
  }

  private static JsonNode run(String slice) throws Exception {
    CliRun run = floe(home, "run", job, "--slice", slice, "--json");
    ok(run);
    return JSON.readTree(run.out());
  }

  private static void ok(CliRun run) {
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private static Expression day(String day) {
    return Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay());
  }

  private static <T> T withTable(Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, TABLE));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static long head() {
    return withTable(t -> t.currentSnapshot().snapshotId());
  }

  private static ContentHash checksum(Expression filter) {
    return withTable(t -> TableContent.hash(t, filter));
  }

  private static Set<String> files(Expression filter) {
    return withTable(
        t -> {
          Set<String> paths = new TreeSet<>();
          try (CloseableIterable<FileScanTask> tasks = t.newScan().filter(filter).planFiles()) {
            tasks.forEach(task -> paths.add(task.file().location()));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return paths;
        });
  }
}
