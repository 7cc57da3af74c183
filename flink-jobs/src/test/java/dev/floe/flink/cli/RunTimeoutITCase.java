package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.backfill.SlowSlice;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Explicit timeouts of {@code floe run}, {@code floe verify} and {@code floe maintain --compact},
 * as a user runs them, on one shared local Flink cluster. The slow slice ({@link SlowSlice}) takes
 * about a minute; the timeouts here are seconds.
 */
class RunTimeoutITCase {
  private static final String FACT = ExampleTables.FACT_ORDERS;

  @TempDir static Path home;
  @TempDir static Path jobs;
  private static LocalCluster cluster;
  private static ExampleTables tables;

  @BeforeAll
  static void startTheClusterAndLoadTheSlowDayOnce() {
    cluster = LocalCluster.start(4);
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    tables = new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 3, 100);
    CliRun first =
        floe(home, "run", write("fast.yaml", ExampleTables.BACKFILL_JOB), "--slice", "2026-01-02");
    assertThat(first.exitCode()).as(first.err()).isZero();
  }

  @AfterAll
  static void stopTheCluster() {
    cluster.close();
  }

  @Test
  void aRunPastItsTimeoutIsCancelledCommitsNothingAndLeavesNoFile() {
    long head = head();
    List<Path> before = targetFiles();
    String slow = write("slow.yaml", SlowSlice.JOB);
    long started = System.nanoTime();

    CliRun run = floe(home, "run", slow, "--slice", SlowSlice.DAY, "--timeout", "8s");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(run.err())
        .isEqualTo(
            "floe: Cannot run slow_orders for 2026-01-02: timed out after 8s (--timeout); its"
                + " Flink job was cancelled and nothing was committed\n");
    assertThat((System.nanoTime() - started) / 1_000_000_000.0).isBetween(8.0, 40.0);
    assertThat(targetFiles()).isEqualTo(before);
    assertThat(head()).isEqualTo(head);
  }

  /**
   * Two writers: one reads the slice's fast file and finishes (its file closed and on its way to
   * the committer, which never starts), the other reads the slow file when the timeout cancels the
   * job. The finished writer does not abort; its file is deleted by the run once it knows it
   * committed nothing.
   */
  @Test
  void aWriterThatFinishedBeforeTheCancelHasItsFileDeletedToo() throws Exception {
    LocalDate day = LocalDate.parse("2026-01-03");
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table staging = Catalogs.loadTable(catalog, ExampleTables.STAGING_ORDERS);
      List<Record> slow = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        slow.add(
            TableRows.row(
                staging,
                Map.of(
                    "order_id",
                    day.toEpochDay() * 100_000L + 50_000 + i,
                    "amount",
                    BigDecimal.ONE.setScale(2),
                    "order_date",
                    day)));
      }
      TableRows.append(staging, slow.toArray(Record[]::new)); // a second file: the slow rows
    } finally {
      Catalogs.close(catalog);
    }
    String skewed =
        write(
            "skewed.yaml",
            """
            job: skewed_orders
            target: sales.fact_orders
            mode: overwrite
            slice: {column: order_date}
            parallelism: 2
            query: |
              SELECT order_id, customer_id, amount, order_date
              FROM sales.staging_orders /*+ OPTIONS('split-size'='1') */
              WHERE order_date >= :slice_start AND order_date < :slice_end
                AND (MOD(order_id, 100000) < 50000
                  OR NOT REGEXP(CONCAT(REPEAT('a', 21 + CAST(MOD(order_id, 2) AS INT)), 'c'),
                                '((a+)+)+b'))
            """);
    long head = head();
    List<Path> before = targetFiles();

    CompletableFuture<CliRun> running =
        CompletableFuture.supplyAsync(
            () -> floe(home, "run", skewed, "--slice", day.toString(), "--timeout", "8s"));
    Set<Path> written = new HashSet<>();
    while (!running.isDone()) {
      targetFiles().stream().filter(f -> !before.contains(f)).forEach(written::add);
      Thread.sleep(100);
    }
    CliRun run = running.get();

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(written).as("the finished writer's file, while the other one ran").isNotEmpty();
    assertThat(targetFiles()).isEqualTo(before);
    assertThat(head()).isEqualTo(head);
  }

  @Test
  void theTimeoutFlagWinsOverTheManifestsTimeoutEitherWay() {
    String tight = write("tight.yaml", ExampleTables.BACKFILL_JOB + "timeout: PT0.001S\n");
    String loose = write("loose.yaml", ExampleTables.BACKFILL_JOB + "timeout: 10m\n");
    long head = head();

    CliRun byManifest = floe(home, "run", tight, "--slice", "2026-01-01");

    assertThat(byManifest.exitCode()).as(byManifest.err()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(byManifest.err())
        .isEqualTo(
            "floe: Cannot run fact_orders_backfill for 2026-01-01: timed out after PT0.001S"
                + " (timeout in "
                + tight
                + ") before its Flink job started; nothing was committed\n");
    assertThat(head()).isEqualTo(head);

    CliRun byFlag = floe(home, "run", loose, "--slice", "2026-01-01", "--timeout", "1ms");

    assertThat(byFlag.exitCode()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(byFlag.err()).contains("timed out after 1ms (--timeout) before its Flink job");
    assertThat(head()).isEqualTo(head);

    CliRun longerFlag = floe(home, "run", tight, "--slice", "2026-01-01", "--timeout", "10m");

    assertThat(longerFlag.exitCode()).as(longerFlag.err()).isZero();
    assertThat(longerFlag.out()).contains("status    committed");
  }

  @Test
  void badTimeoutsAreExit2NamingTheKeyOrTheFlagAndTheValue() {
    String soon = write("soon.yaml", ExampleTables.BACKFILL_JOB + "timeout: soon\n");
    String fast = write("fast.yaml", ExampleTables.BACKFILL_JOB);

    CliRun manifest = floe(home, "run", soon, "--slice", "2026-01-01");
    CliRun negative = floe(home, "run", fast, "--slice", "2026-01-01", "--timeout", "-5m");
    CliRun verify = floe(home, "verify", fast, "--slice", "2026-01-01", "--timeout", "soon");
    CliRun overall =
        floe(
            home,
            "backfill",
            fast,
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-03",
            "--overall-timeout",
            "0s");
    CliRun maintain = floe(home, "maintain", FACT, "--expire", "--timeout", "1h");

    assertThat(manifest.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(manifest.err())
        .startsWith(
            "floe: Cannot read "
                + soon
                + " at 'timeout': 'soon' is not a timeout: expected a duration, ISO-8601 such as"
                + " PT30M");
    assertThat(negative.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(negative.err())
        .startsWith("floe: Cannot use --timeout '-5m': a timeout must be positive");
    assertThat(verify.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(verify.err()).startsWith("floe: Cannot use --timeout 'soon': expected a duration");
    assertThat(overall.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(overall.err())
        .startsWith("floe: Cannot use --overall-timeout '0s': a timeout must be positive");
    assertThat(maintain.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(maintain.err()).startsWith("floe: Cannot use --timeout without --compact");
  }

  @Test
  void verifyPastItsTimeoutExits6AndLeavesNoScratchBranch() {
    String slow = write("slow.yaml", SlowSlice.JOB);
    long head = head();

    CliRun verify = floe(home, "verify", slow, "--slice", SlowSlice.DAY, "--timeout", "3s");

    assertThat(verify.exitCode()).as(verify.err()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(verify.err())
        .startsWith("floe: Cannot run slow_orders for 2026-01-02: timed out after 3s (--timeout)")
        .contains("nothing was committed");
    assertThat(tables.table(FACT).refs()).containsOnlyKeys("main");
    assertThat(head()).isEqualTo(head);
  }

  @Test
  void aCompactionPastItsTimeoutExits6AndChangesNoFile() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table fact = Catalogs.loadTable(catalog, FACT);
      for (int i = 0; i < 2; i++) { // two small files in the partition of 2026-01-03
        TableRows.append(
            fact,
            TableRows.row(
                fact,
                Map.of(
                    "order_id",
                    90_000L + i,
                    "customer_id",
                    1L,
                    "amount",
                    BigDecimal.ONE.setScale(2),
                    "order_date",
                    LocalDate.parse("2026-01-03"))));
      }
    } finally {
      Catalogs.close(catalog);
    }
    long head = head();
    List<Path> before = targetFiles();

    CliRun compact =
        floe(home, "maintain", FACT, "--compact", "--slice", "2026-01-03", "--timeout", "1ms");

    assertThat(compact.exitCode()).as(compact.err()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(compact.err())
        .isEqualTo(
            "floe: Cannot compact sales.fact_orders: timed out after 1ms (--timeout) before its"
                + " Flink job started; nothing was committed\n");
    assertThat(head()).isEqualTo(head);
    assertThat(targetFiles()).isEqualTo(before);
  }

  private static long head() {
    return tables.table(FACT).currentSnapshot().snapshotId();
  }

  /** The data files under the target's folder in the warehouse, committed or not. */
  private static List<Path> targetFiles() {
    try (Stream<Path> files = Files.walk(home)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> f.toString().contains("fact_orders") && f.toString().contains("/data/"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String write(String name, String text) {
    try {
      return Files.writeString(jobs.resolve(name), text).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
