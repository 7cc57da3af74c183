package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static dev.floe.flink.testing.ExampleTables.customer;
import static dev.floe.flink.testing.ExampleTables.day;
import static dev.floe.flink.testing.ExampleTables.order;
import static dev.floe.flink.testing.ExampleTables.replace;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.OrphanFile;
import dev.floe.catalog.maintain.OrphanFiles;
import dev.floe.catalog.maintain.OrphanFilesPlan;
import dev.floe.catalog.maintain.ReferencedFiles;
import dev.floe.catalog.testing.TableRows;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.session.LocalCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fault matrix: every committing operation, run as a user runs it ({@code floe …} in process,
 * on the embedded catalog, with real Flink jobs), fails on purpose at every {@link FailurePoint} it
 * reaches. After each failure the table holds exactly its old or exactly its new content; the same
 * command run again succeeds and leaves exactly what a clean run leaves; keyed tables hold no
 * duplicate key; and every file left on disk is either referenced by the table or listed by the
 * orphan-file plan ({@code floe maintain --orphans --dry-run}), whose deletion changes no row.
 * Content is read from the table (checksums), never from Floe's lineage.
 */
class FaultMatrixITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DAY = "2026-10-03";
  private static final String OTHER_DAY = "2026-10-04";
  private static final String FACT = "sales.fact_orders";
  private static final String DIM = "sales.dim_customer";
  private static final String EVENTS = "sales.order_events";
  private static final String COPY = "sales.customer_copy";
  private static final List<FailurePoint> WRITING =
      List.of(
          FailurePoint.AFTER_PLANNING,
          FailurePoint.AFTER_SOME_FILES,
          FailurePoint.AFTER_ALL_FILES,
          FailurePoint.BEFORE_COMMIT,
          FailurePoint.LOST_REQUEST,
          FailurePoint.LOST_RESPONSE,
          FailurePoint.AFTER_COMMIT);
  private static final List<FailurePoint> METADATA =
      List.of(
          FailurePoint.BEFORE_COMMIT,
          FailurePoint.LOST_REQUEST,
          FailurePoint.LOST_RESPONSE,
          FailurePoint.AFTER_COMMIT);

  /** What the matrix saw: "op point" to "exit code / leftover files", printed at the end. */
  private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  enum Operation {
    OVERWRITE(WRITING),
    MERGE(WRITING),
    INSERT_IF_ABSENT(WRITING),
    SWAP(WRITING),
    COMPACT(WRITING),
    REVERT(METADATA),
    PUBLISH(METADATA),
    ROLLBACK(METADATA);

    final List<FailurePoint> points;

    Operation(List<FailurePoint> points) {
      this.points = points;
    }
  }

  @TempDir Path home;
  @TempDir Path manifests;
  @RegisterExtension final WebhookServer webhook = new WebhookServer();

  @ParameterizedTest
  @EnumSource(Operation.class)
  void everyFailureLeavesTheOldOrNewTableAndTheRerunEndsAsACleanRunWould(Operation operation)
      throws Exception {
    setUp();
    int step = 0;
    for (FailurePoint point : operation.points) {
      step++;
      Scenario scenario = prepare(operation, step);
      ContentHash before = content(scenario.table());

      long started = System.nanoTime();
      CliRun failed = floe(home, with(scenario.command(), "--inject-failure", point.name()));
      long failedMillis = (System.nanoTime() - started) / 1_000_000;
      ContentHash afterFailure = content(scenario.table());
      if (point == FailurePoint.LOST_RESPONSE) {
        // The catalog committed and the answer was lost: the core finds the run and says so.
        assertThat(failed.exitCode()).as(describe(operation, point, failed)).isZero();
        assertThat(afterFailure)
            .as(describe(operation, point, failed))
            .isEqualTo(scenario.expected());
      } else if (point == FailurePoint.LOST_REQUEST) {
        // Nothing reached the catalog, but Floe cannot know that: exit 5, the table unchanged.
        assertThat(failed.exitCode())
            .as(describe(operation, point, failed))
            .isEqualTo(ExitCodes.COMMIT_STATE_UNKNOWN);
        // Compaction reports a failed slice in its report line (stdout); bin/floe's stderr also
        // shows it, from the committer's log, which a run in this process does not capture.
        assertThat(failed.out() + failed.err())
            .as(describe(operation, point, failed))
            .contains("Cannot tell whether", "[LOST_REQUEST]", "the files were kept");
        assertThat(afterFailure).as("%s at %s: unchanged", operation, point).isEqualTo(before);
      } else {
        assertThat(failed.exitCode()).as(describe(operation, point, failed)).isEqualTo(1);
        assertThat(failed.err())
            .as(describe(operation, point, failed))
            .contains("Injected failure");
        assertThat(afterFailure)
            .as("%s at %s: old or new content", operation, point)
            .isIn(before, scenario.expected());
      }

      started = System.nanoTime();
      CliRun rerun = floe(home, scenario.command());
      long rerunMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(rerun.exitCode()).as(describe(operation, point, rerun)).isZero();
      assertThat(content(scenario.table()))
          .as("%s after %s and a rerun: what a clean run leaves", operation, point)
          .isEqualTo(scenario.expected());
      assertNoDuplicateKeys(scenario);
      if (operation == Operation.OVERWRITE) {
        // Every step commits new content under a run key of its own (the manifest differs), so
        // its effect is sent exactly once: never before the commit, never twice after it.
        assertThat(webhook.requests().stream().map(r -> r.headers().get("idempotency-key")))
            .as("OVERWRITE after %s: one delivery per committed run key", point)
            .hasSize(step)
            .doesNotHaveDuplicates();
      }
      int leftovers = assertLeftoversAreListedOrphansThatNoRowNeeds(scenario.table());
      if (point == FailurePoint.LOST_REQUEST && operation.points == WRITING) {
        // The files of a commit whose outcome is unknown are kept: orphans once the rerun commits.
        assertThat(leftovers).as("%s at %s: the files were kept", operation, point).isPositive();
      }
      SEEN.put(
          operation + " " + point,
          String.format(
              "exit %d (%d ms), rerun exit 0 (%d ms), %d orphan file(s)",
              failed.exitCode(), failedMillis, rerunMillis, leftovers));
    }
  }

  /** One Flink cluster for every run of the matrix, as a backfill shares one. */
  private static LocalCluster cluster;

  @BeforeAll
  static void startOneCluster() {
    cluster = LocalCluster.start(4);
  }

  @AfterAll
  static void printTheMatrix() {
    cluster.close();
    new TreeSet<>(SEEN.keySet())
        .forEach(k -> System.out.println("fault matrix: " + k + " -> " + SEEN.get(k)));
  }

  /**
   * What one step of an operation changes, the command that does it, and the content it must leave.
   */
  private record Scenario(String table, String[] command, ContentHash expected, String key) {}

  private void setUp() throws IOException {
    Path tables = Files.createDirectories(manifests.resolve("tables"));
    Files.writeString(
        tables.resolve("order_events.yaml"),
        """
        table: sales.order_events
        schema:
          - {name: order_id,    type: long, required: true}
          - {name: customer_id, type: long}
          - {name: amount,      type: "decimal(10,2)"}
          - {name: order_date,  type: date, required: true}
        partition: [order_date]
        key: [order_id]
        """);
    Files.writeString(
        tables.resolve("customer_copy.yaml"),
        """
        table: sales.customer_copy
        schema:
          - {name: customer_id, type: long}
          - {name: tier,        type: string}
          - {name: updated_at,  type: timestamptz}
        """);
    Files.writeString(
        manifests.resolve("events_insert.job.yaml"),
        """
        job: order_events_insert
        target: sales.order_events
        mode: insert-if-absent
        slice: {column: order_date}
        query: |
          SELECT order_id, customer_id, amount, order_date
          FROM sales.staging_orders
          WHERE order_date >= :slice_start AND order_date < :slice_end
        """);
    Files.writeString(
        manifests.resolve("customer_swap.job.yaml"),
        """
        job: customer_copy_swap
        target: sales.customer_copy
        mode: swap
        query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
        """);
    for (Path specs : List.of(examples().resolve("tables"), tables)) {
      CliRun apply = floe(home, "tables", "apply", specs.toString());
      assertThat(apply.exitCode()).as(apply.err()).isZero();
    }
  }

  /** Changes the sources (and runs what the operation needs first) for step {@code n}. */
  private Scenario prepare(Operation operation, int n) throws Exception {
    String factJob = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    switch (operation) {
      case OVERWRITE -> {
        orders(n, 2);
        return new Scenario(
            FACT, args("run", notifyingJob(n), "--slice", DAY), factExpected(), "order_id");
      }
      case MERGE -> {
        customers(n);
        String job = examples().resolve("jobs/dim_customer_merge.yaml").toString();
        return new Scenario(
            DIM, args("run", job), content("sales.staging_customer"), "customer_id");
      }
      case INSERT_IF_ABSENT -> {
        // The keys of earlier steps again (with their first values: insert-if-absent keeps
        // those), and one new key.
        orders(0, n + 1);
        String job = manifests.resolve("events_insert.job.yaml").toString();
        return new Scenario(
            EVENTS, args("run", job, "--slice", DAY), slice("sales.staging_orders"), "order_id");
      }
      case SWAP -> {
        customers(n);
        String job = manifests.resolve("customer_swap.job.yaml").toString();
        return new Scenario(COPY, args("run", job), content("sales.staging_customer"), null);
      }
      case COMPACT -> {
        for (int file = 0; file < 3; file++) {
          appendFact(1000L * n + file);
        }
        return new Scenario(
            FACT, args("maintain", FACT, "--compact", "--slice", DAY), content(FACT), "order_id");
      }
      case REVERT -> {
        ContentHash beforeRun = loadNewFactRun(n);
        return new Scenario(FACT, args("revert", FACT, "--run", lastRunId), beforeRun, "order_id");
      }
      case PUBLISH -> {
        orders(n, 2);
        JsonNode audited = runJson(factJob, "--slice", DAY, "--publish", "manual");
        assertThat(audited.get("status").asText()).isEqualTo("committed");
        return new Scenario(
            FACT,
            args("publish", FACT, "--run", audited.get("run_id").asText()),
            factExpected(),
            "order_id");
      }
      case ROLLBACK -> {
        ContentHash beforeRun = loadNewFactRun(n);
        return new Scenario(
            FACT, args("rollback", FACT, "--before-run", lastRunId), beforeRun, "order_id");
      }
    }
    throw new IllegalArgumentException(operation.name());
  }

  private String lastRunId;

  /** The fact job with a webhook effect; step {@code n}'s manifest (so run key) is its own. */
  private String notifyingJob(int n) throws IOException {
    Path job = manifests.resolve("fact_orders_notify_" + n + ".yaml");
    Files.writeString(
        job,
        Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"))
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s"
                  body: '{"slice": "${slice}", "snapshot": ${snapshot_id}}'
            # step %d
            """
                .formatted(webhook.url("/hook"), n));
    return job.toString();
  }

  /** Loads new content into the fact's day with a clean run; the content before that run. */
  private ContentHash loadNewFactRun(int n) throws Exception {
    orders(n, 2);
    ContentHash before = content(FACT);
    JsonNode run =
        runJson(examples().resolve("jobs/fact_orders_daily.yaml").toString(), "--slice", DAY);
    assertThat(run.get("status").asText()).isEqualTo("committed");
    lastRunId = run.get("run_id").asText();
    return before;
  }

  /** The fact table as a clean run leaves it: the staged day, and the other day untouched. */
  private ContentHash factExpected() {
    ContentHash expected = ContentHash.empty();
    expected.merge(slice("sales.staging_orders"));
    expected.merge(withTable(FACT, t -> TableContent.hash(t, day(OTHER_DAY))));
    return expected;
  }

  private JsonNode runJson(String job, String... extra) throws Exception {
    CliRun run = floe(home, with(with(args("run", job), extra), "--json"));
    assertThat(run.exitCode()).as(run.err()).isZero();
    return JSON.readTree(run.out());
  }

  /** Staging orders for step {@code n}: {@code keys} orders on DAY (amounts change with n). */
  private void orders(int n, int keys) {
    withTable(
        "sales.staging_orders",
        staging -> {
          List<Record> rows = new ArrayList<>();
          for (long id = 1; id <= keys; id++) {
            rows.add(order(staging, id, id * 10, n * 100 + id + ".25", DAY));
          }
          rows.add(order(staging, 99, 9, "1.00", OTHER_DAY));
          replace(staging, rows);
          return null;
        });
    if (!withTable(FACT, t -> t.currentSnapshot() != null)) {
      // The other day is loaded once, so every operation has a slice it must not touch.
      CliRun load =
          floe(
              home,
              "run",
              examples().resolve("jobs/fact_orders_daily.yaml").toString(),
              "--slice",
              OTHER_DAY);
      assertThat(load.exitCode()).as(load.err()).isZero();
    }
  }

  /** Staging customers for step n: 10 and 11, each strictly newer than in any earlier step. */
  private void customers(int n) {
    withTable(
        "sales.staging_customer",
        staging -> {
          OffsetDateTime at =
              OffsetDateTime.of(2026, 10, 3, 9, 0, 0, 0, ZoneOffset.UTC).plusHours(n);
          replace(
              staging,
              List.of(
                  customer(staging, 10, n % 2 == 0 ? "pro" : "free", at),
                  customer(staging, 11, n % 2 == 0 ? "free" : "pro", at.plusMinutes(n))));
          return null;
        });
  }

  private void appendFact(long id) {
    withTable(
        FACT,
        fact -> {
          TableRows.append(fact, order(fact, id, 1, "3.50", DAY));
          return null;
        });
  }

  private ContentHash content(String table) {
    return withTable(table, t -> TableContent.hash(t, Expressions.alwaysTrue()));
  }

  private ContentHash slice(String table) {
    return withTable(table, t -> TableContent.hash(t, day(DAY)));
  }

  private void assertNoDuplicateKeys(Scenario scenario) {
    if (scenario.key() == null) {
      return;
    }
    withTable(
        scenario.table(),
        table -> {
          List<Object> keys = new ArrayList<>();
          try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
            rows.forEach(r -> keys.add(r.getField(scenario.key())));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          assertThat(new HashSet<>(keys))
              .as("distinct keys of %s", scenario.table())
              .hasSize(keys.size());
          return null;
        });
  }

  /**
   * Every file under the table's location is referenced by the table or listed by the orphan plan;
   * deleting the listed ones changes no row. Returns how many were left over.
   */
  private int assertLeftoversAreListedOrphansThatNoRowNeeds(String name) {
    return withTable(
        name,
        table -> {
          Path location = Path.of(table.location().replaceFirst("^file:", ""));
          Set<String> onDisk;
          try (Stream<Path> files = Files.walk(location)) {
            onDisk =
                files
                    .filter(Files::isRegularFile)
                    // Hadoop's local file system keeps a .crc beside every file it writes.
                    .filter(p -> !p.getFileName().toString().endsWith(".crc"))
                    .map(p -> "file:" + p.toAbsolutePath())
                    .collect(Collectors.toCollection(TreeSet::new));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          Set<String> referenced = ReferencedFiles.all(table).locations();
          Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(30)), ZoneOffset.UTC);
          OrphanFilesPlan plan = OrphanFiles.of(table, name).clock(later).apply();
          Set<String> listed =
              plan.orphans().stream()
                  .map(OrphanFile::location)
                  .map(FaultMatrixITCase::normal)
                  .collect(Collectors.toSet());
          Set<String> left = new TreeSet<>();
          for (String file : onDisk) {
            if (!referenced.contains(file)
                && !referenced.contains(file.replace("file:", "file://"))
                && !referenced.contains(file.replace("file:", ""))) {
              left.add(file);
            }
          }
          assertThat(left.stream().map(FaultMatrixITCase::normal).collect(Collectors.toSet()))
              .as("files of %s that nothing references are exactly the orphan plan's", name)
              .isEqualTo(listed);
          ContentHash before = TableContent.hash(table, Expressions.alwaysTrue());
          OrphanFiles.of(table, name).clock(later).commit();
          table.refresh();
          assertThat(TableContent.hash(table, Expressions.alwaysTrue())).isEqualTo(before);
          return left.size();
        });
  }

  private static String normal(String location) {
    return location.replaceFirst("^file:/*", "/");
  }

  private <T> T withTable(String name, Function<Table, T> action) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.load(null, home, Map.of(), Map.of()));
    try {
      return action.apply(Catalogs.loadTable(catalog, name));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static String describe(Operation operation, FailurePoint point, CliRun run) {
    return operation + " at " + point + ": exit " + run.exitCode() + "\n" + run.out() + run.err();
  }

  private static String[] args(String... args) {
    return args;
  }

  private static String[] with(String[] args, String... more) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
