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
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.flink.session.LocalCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model-based test: seeded random sequences of what users and operators do — source changes, runs
 * and reruns, emptied slices, injected failures at every point, backfills, merges and replays of
 * old batches, write-audit-publish and discard, compaction, rollback and revert — run through the
 * CLI in process, against a plain in-memory model of what every table must hold. After every step:
 * each slice of the table equals the model (checksums read from the table), keyed tables hold no
 * duplicate key, a run is a no-op exactly when the content would not change, and the head's lineage
 * records the content it committed.
 *
 * <p>{@value #STEPS_PROPERTY} sets the number of steps (300 by default; the {@code stress} profile
 * runs 10,000), {@value #SEED_PROPERTY} picks the sequence ({@link #DEFAULT_SEED} by default,
 * {@code random} for a new one). The seed and the steps so far are printed with every failure.
 */
class RandomOperationSequencesITCase {
  static final String SEED_PROPERTY = "floe.model.seed";
  static final String STEPS_PROPERTY = "floe.model.steps";

  /**
   * The sequence {@code ./mvnw verify} runs: fixed, so the suite is deterministic; the stress
   * profile draws a new seed each time ({@code -Dfloe.model.seed=random}).
   */
  static final long DEFAULT_SEED = 20261201L;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FACT = "sales.fact_orders";
  private static final String DIM = "sales.dim_customer";
  private static final List<String> DAYS = List.of("2026-10-03", "2026-10-04", "2026-10-05");
  private static final String[] AMOUNTS = {"1.00", "2.50", "9.99"};

  /** `floe late apply`'s as-of: every day of the model is inside its P3D window. */
  private static final String LATE_AS_OF = "2026-10-06T00:00:00Z";

  /** Snapshots fact_orders keeps under expiry in the model (max_age is dropped, so it decides). */
  private static final int KEEP_LAST = 8;

  private static LocalCluster cluster;

  @TempDir Path home;
  private Catalog catalog;
  private Random random;

  /**
   * Draws for operations added after the first regression seeds were recorded, so that those
   * sequences replay exactly as they did: {@link #random} is drawn as before.
   */
  private Random extra;

  /** The failure points {@link #random} draws from, as when the first seeds were recorded. */
  private static final List<FailurePoint> FIRST_FAILURE_POINTS =
      List.of(
          FailurePoint.AFTER_PLANNING,
          FailurePoint.AFTER_SOME_FILES,
          FailurePoint.AFTER_ALL_FILES,
          FailurePoint.BEFORE_COMMIT,
          FailurePoint.LOST_RESPONSE,
          FailurePoint.AFTER_COMMIT);

  private final List<String> log = new ArrayList<>();
  private String factJob;
  private String dimJob;

  /** What fact_orders must hold: per day, the content hash of its rows. */
  private Map<String, ContentHash> fact = new TreeMap<>();

  /** The commits on fact_orders' main history, oldest first, with the content after each. */
  private final List<Entry> history = new ArrayList<>();

  /** What dim_customer must hold: customer id to "tier@updated_at". */
  private final Map<Long, String> dim = new TreeMap<>();

  /** What order_events must hold (insert-if-absent): order id to "customer:amount@day". */
  private final Map<Long, String> events = new TreeMap<>();

  /** What customer_copy must hold (swap): customer id to "tier@updated_at". */
  private final Map<Long, String> copy = new TreeMap<>();

  @TempDir Path manifests;
  private String eventsJob;
  private String copyJob;

  /** A commit on main: its run, its day, the run it reverts (or null), the content around it. */
  private record Entry(
      String runId,
      String day,
      String revertsRun,
      Map<String, ContentHash> before,
      Map<String, ContentHash> after) {}

  @BeforeAll
  static void startOneCluster() {
    cluster = LocalCluster.start(4);
  }

  @AfterAll
  static void stopTheCluster() {
    cluster.close();
  }

  @Test
  void everyTableMatchesTheModelAfterEveryStepOfARandomSequence() {
    String seed = System.getProperty(SEED_PROPERTY, "");
    runSequence(
        seed.isBlank() || seed.startsWith("${")
            ? DEFAULT_SEED
            : "random".equals(seed) ? System.nanoTime() : Long.parseLong(seed),
        Integer.getInteger(STEPS_PROPERTY, 300));
  }

  /**
   * Found by this test: a backfill started a shared Flink cluster of its own and failed ("one is
   * already open") inside a process that already shared one.
   */
  @Test
  void aBackfillJoinsTheClusterItsProcessAlreadyShares() {
    runSequence(3285034565947L, 4);
  }

  private void runSequence(long seed, int steps) {
    random = new Random(seed);
    extra = new Random(seed * 31 + 7);
    factJob = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    dimJob = examples().resolve("jobs/dim_customer_merge.yaml").toString();
    writeEventAndCopyManifests();
    for (Path specs : List.of(examples().resolve("tables"), manifests.resolve("tables"))) {
      CliRun apply = floe(home, "tables", "apply", specs.toString());
      assertThat(apply.exitCode()).as(apply.err()).isZero();
    }
    withTable(
        FACT,
        t -> {
          t.updateProperties()
              .remove(FloeTableProperties.RETENTION_MAX_AGE)
              .set(FloeTableProperties.RETENTION_KEEP_LAST, Integer.toString(KEEP_LAST))
              .commit();
          return null;
        });
    Map<String, Integer> counts = new TreeMap<>();
    try {
      for (int step = 1; step <= steps; step++) {
        String operation = step(step);
        counts.merge(operation, 1, Integer::sum);
        checkInvariants(step);
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "Random sequence failed; replay with -D"
              + SEED_PROPERTY
              + "="
              + seed
              + " -D"
              + STEPS_PROPERTY
              + "="
              + steps
              + "\nsteps:\n  "
              + String.join("\n  ", log.subList(Math.max(0, log.size() - 40), log.size())),
          e);
    }
    System.out.println(
        "random operation sequences: seed " + seed + ", " + steps + " steps: " + counts);
  }

  /** One random step; returns its name. */
  private String step(int step) {
    int pick = random.nextInt(100);
    String day = DAYS.get(random.nextInt(DAYS.size()));
    if (pick < 22) {
      changeSource(step, day);
      if (extra.nextInt(4) == 0) {
        lateApply(step);
        return "source+late-apply";
      }
      return "source";
    } else if (pick < 41) {
      if (extra.nextInt(4) == 0) {
        concurrentRuns(step);
        return "concurrent-runs";
      }
      run(step, day, FailurePoint.NONE);
      return "run";
    } else if (pick < 45) {
      insertIfAbsent(step, day);
      return "insert-if-absent";
    } else if (pick < 55) {
      FailurePoint point = FIRST_FAILURE_POINTS.get(random.nextInt(FIRST_FAILURE_POINTS.size()));
      if (extra.nextInt(7) == 0) {
        point = FailurePoint.LOST_REQUEST; // added later: drawn from extra
      }
      run(step, day, point);
      return "run-with-failure";
    } else if (pick < 63) {
      changeCustomers(step);
      return "customers";
    } else if (pick < 69) {
      merge(step);
      return "merge";
    } else if (pick < 71) {
      swap(step);
      return "swap";
    } else if (pick < 77) {
      return rollback(step) ? "rollback" : "rollback-skipped";
    } else if (pick < 84) {
      return revert(step) ? "revert" : "revert-skipped";
    } else if (pick < 91) {
      publishOrDiscard(step, day);
      return "audit";
    } else if (pick < 95) {
      if (extra.nextInt(3) == 0) {
        expire(step);
        return "expire";
      }
      compact(step, day);
      return "compact";
    } else {
      backfill(step);
      return "backfill";
    }
  }

  // ---- operations ----------------------------------------------------------------------------

  private void changeSource(int step, String day) {
    int rows = random.nextInt(4); // 0: the day's source is emptied
    List<Record> records = new ArrayList<>();
    withTable(
        "sales.staging_orders",
        staging -> {
          for (int i = 1; i <= rows; i++) {
            long id = (DAYS.indexOf(day) + 1) * 100L + i;
            records.add(order(staging, id, id % 7, AMOUNTS[random.nextInt(AMOUNTS.length)], day));
          }
          replace(staging, day(day), records);
          return null;
        });
    log.add(step + ": source " + day + " now " + rows + " row(s)");
  }

  private void run(int step, String day, FailurePoint point) {
    ContentHash source = slice("sales.staging_orders", day);
    boolean changes = !source.equals(fact.getOrDefault(day, ContentHash.empty()));
    List<String> args = new ArrayList<>(List.of("run", factJob, "--slice", day, "--json"));
    if (point != FailurePoint.NONE) {
      args.addAll(List.of("--inject-failure", point.name()));
    }
    CliRun run = floe(home, args.toArray(String[]::new));
    log.add(step + ": run " + day + " at " + point + " -> exit " + run.exitCode());
    boolean crashBeforeCommit =
        point == FailurePoint.AFTER_PLANNING
            || point == FailurePoint.AFTER_SOME_FILES
            || point == FailurePoint.AFTER_ALL_FILES
            || (changes && point == FailurePoint.BEFORE_COMMIT);
    boolean crashAfterCommit = changes && point == FailurePoint.AFTER_COMMIT;
    boolean lostRequest = changes && point == FailurePoint.LOST_REQUEST;
    if (lostRequest) {
      // The commit never reached the catalog, and Floe cannot know it: exit 5, nothing committed.
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(5);
      assertThat(run.err()).contains("Cannot tell whether", "[" + point + "]");
    } else if (crashBeforeCommit || crashAfterCommit) {
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(1);
      assertThat(run.err()).contains("Injected failure", "[" + point + "]");
    } else {
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      String status = json(run).get("status").asText();
      assertThat(status)
          .as("a run is a no-op exactly when the content would not change")
          .isEqualTo(changes ? "committed" : "no-op");
    }
    if (changes && !crashBeforeCommit && !lostRequest) {
      commitToModel(day, source);
    }
  }

  private void insertIfAbsent(int step, String day) {
    Map<Long, String> staged = new TreeMap<>();
    withTable(
        "sales.staging_orders",
        staging -> {
          for (Record r : rows(staging)) {
            if (day.equals(String.valueOf(r.getField("order_date")))) {
              staged.put((Long) r.getField("order_id"), orderText(r));
            }
          }
          return null;
        });
    Map<Long, String> expected = new TreeMap<>(events);
    staged.forEach(expected::putIfAbsent);
    CliRun run = floe(home, "run", eventsJob, "--slice", day, "--json");
    log.add(
        step + ": insert-if-absent " + day + " " + staged.keySet() + " -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(json(run).get("status").asText())
        .as("an insert is a no-op exactly when every key is there")
        .isEqualTo(expected.equals(events) ? "no-op" : "committed");
    events.clear();
    events.putAll(expected);
  }

  private void swap(int step) {
    Map<Long, String> staged = new TreeMap<>();
    withTable(
        "sales.staging_customer",
        staging -> {
          rows(staging).forEach(r -> staged.put((Long) r.getField("customer_id"), customerText(r)));
          return null;
        });
    CliRun run = floe(home, "run", copyJob, "--json");
    log.add(step + ": swap " + staged + " -> exit " + run.exitCode());
    if (staged.isEmpty()) {
      // An empty result would empty the table: refused unless the job says allow_empty.
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(3);
      return;
    }
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(json(run).get("status").asText())
        .as("a swap is a no-op exactly when the table already holds the result")
        .isEqualTo(staged.equals(copy) ? "no-op" : "committed");
    copy.clear();
    copy.putAll(staged);
  }

  private void writeEventAndCopyManifests() {
    try {
      java.nio.file.Files.createDirectories(manifests.resolve("tables"));
      java.nio.file.Files.writeString(
          manifests.resolve("tables/order_events.yaml"),
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
      java.nio.file.Files.writeString(
          manifests.resolve("tables/customer_copy.yaml"),
          """
          table: sales.customer_copy
          schema:
            - {name: customer_id, type: long}
            - {name: tier,        type: string}
            - {name: updated_at,  type: timestamptz}
          """);
      eventsJob = manifests.resolve("events_insert.yaml").toString();
      java.nio.file.Files.writeString(
          Path.of(eventsJob),
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
      copyJob = manifests.resolve("customer_swap.yaml").toString();
      java.nio.file.Files.writeString(
          Path.of(copyJob),
          """
          job: customer_copy_swap
          target: sales.customer_copy
          mode: swap
          query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
          """);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String orderText(Record r) {
    return r.getField("customer_id") + ":" + r.getField("amount") + "@" + r.getField("order_date");
  }

  private static String customerText(Record r) {
    return r.getField("tier") + "@" + r.getField("updated_at");
  }

  private void changeCustomers(int step) {
    int rows = 1 + random.nextInt(3);
    Map<Long, Record> byKey = new LinkedHashMap<>();
    withTable(
        "sales.staging_customer",
        staging -> {
          for (int i = 0; i < rows; i++) {
            long id = 10 + random.nextInt(3);
            // Hours 0..5: replays of older batches are likely, ties within a batch are not made.
            OffsetDateTime at =
                OffsetDateTime.of(2026, 10, 3, random.nextInt(6), 0, 0, 0, ZoneOffset.UTC);
            String tier = random.nextBoolean() ? "free" : "pro";
            byKey.put(id, customer(staging, id, tier, at));
          }
          replace(staging, new ArrayList<>(byKey.values()));
          return null;
        });
    log.add(step + ": customers now " + describe(byKey.values()));
  }

  private void merge(int step) {
    Map<Long, String> batch = new TreeMap<>();
    withTable(
        "sales.staging_customer",
        staging -> {
          for (Record r : rows(staging)) {
            batch.put(
                (Long) r.getField("customer_id"),
                r.getField("tier") + "@" + r.getField("updated_at"));
          }
          return null;
        });
    Map<Long, String> expected = new TreeMap<>(dim);
    batch.forEach(
        (key, value) -> {
          String current = expected.get(key);
          if (current == null || at(value).isAfter(at(current))) {
            expected.put(key, value);
          }
        });
    CliRun run = floe(home, "run", dimJob, "--json");
    log.add(step + ": merge " + batch + " -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(json(run).get("status").asText())
        .as("a merge is a no-op exactly when no row changes")
        .isEqualTo(expected.equals(dim) ? "no-op" : "committed");
    dim.clear();
    dim.putAll(expected);
  }

  private boolean rollback(int step) {
    if (history.isEmpty()) {
      return false;
    }
    int index = random.nextInt(history.size());
    Entry target = history.get(index);
    CliRun run = floe(home, "rollback", FACT, "--before-run", target.runId());
    log.add(step + ": rollback before " + target.runId() + " -> exit " + run.exitCode());
    if (withTable(FACT, t -> snapshotOf(t, target.runId()).parentId() == null)) {
      // The run made the table's first snapshot: there is no "before" to make current.
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(2);
      assertThat(run.err()).contains("it made the table's first snapshot");
      return true;
    }
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    history.subList(index, history.size()).clear();
    fact = new TreeMap<>(target.before());
    return true;
  }

  private boolean revert(int step) {
    if (history.isEmpty()) {
      return false;
    }
    int index = random.nextInt(history.size());
    Entry target = history.get(index);
    List<Entry> later =
        history.subList(index + 1, history.size()).stream()
            .filter(e -> e.day().equals(target.day()))
            .toList();
    CliRun run = floe(home, "revert", FACT, "--run", target.runId());
    log.add(
        step + ": revert " + target.runId() + " (" + target.day() + ") -> exit " + run.exitCode());
    if (later.isEmpty()) {
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      Map<String, ContentHash> before = target.before();
      ContentHash restored = before.getOrDefault(target.day(), ContentHash.empty());
      Map<String, ContentHash> prior = fact;
      Map<String, ContentHash> after = new TreeMap<>(fact);
      after.put(target.day(), restored);
      fact = after;
      history.add(
          new Entry(
              headRunId(), target.day(), target.runId(), Map.copyOf(prior), Map.copyOf(fact)));
    } else if (revertInEffect(later, target.runId())) {
      assertThat(run.exitCode()).as("a repeated revert is a no-op: " + run.err()).isZero();
      assertThat(run.out()).contains("already reverted");
    } else {
      assertThat(run.exitCode())
          .as("a revert over later commits is refused: " + run.out())
          .isEqualTo(2);
    }
    return true;
  }

  /**
   * Whether a commit in {@code later} (oldest first) reverted the run and no commit after it
   * reverted that revert (a revert of that one reverts the run again): then reverting the run once
   * more is a no-op, whatever loads came after the revert.
   */
  private static boolean revertInEffect(List<Entry> later, String runId) {
    Set<String> undone = new HashSet<>();
    for (int i = later.size() - 1; i >= 0; i--) {
      Entry e = later.get(i);
      if (e.revertsRun() == null || undone.contains(e.runId())) {
        continue;
      }
      if (e.revertsRun().equals(runId)) {
        return true;
      }
      undone.add(e.revertsRun());
    }
    return false;
  }

  private void publishOrDiscard(int step, String day) {
    ContentHash source = slice("sales.staging_orders", day);
    boolean changes = !source.equals(fact.getOrDefault(day, ContentHash.empty()));
    CliRun run = floe(home, "run", factJob, "--slice", day, "--publish", "manual", "--json");
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode result = json(run);
    assertThat(result.get("status").asText()).isEqualTo(changes ? "committed" : "no-op");
    if (!changes) {
      log.add(step + ": audited run of " + day + " -> no-op");
      return;
    }
    String runId = result.get("run_id").asText();
    boolean publish = random.nextBoolean();
    CliRun decide = floe(home, publish ? "publish" : "discard", FACT, "--run", runId);
    log.add(step + ": audited run of " + day + (publish ? " published" : " discarded"));
    assertThat(decide.exitCode()).as(decide.out() + decide.err()).isZero();
    if (publish) {
      commitToModel(day, source);
    }
  }

  private void compact(int step, String day) {
    CliRun run = floe(home, "maintain", FACT, "--compact", "--slice", day);
    log.add(step + ": compact " + day + " -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
  }

  private void backfill(int step) {
    Map<String, ContentHash> sources = new TreeMap<>();
    DAYS.forEach(d -> sources.put(d, slice("sales.staging_orders", d)));
    Snapshot before = withTable(FACT, Table::currentSnapshot);
    CliRun run =
        floe(home, "backfill", factJob, "--from", DAYS.get(0), "--to", "2026-10-06", "--json");
    log.add(step + ": backfill -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    // Each changed slice got one commit of its own, in the order they landed.
    for (Snapshot s : commitsSince(before)) {
      String day = dayOf(s.summary().get(LineageKeys.SLICE));
      commitToModel(s.summary().get(LineageKeys.RUN_ID), day, sources.get(day));
    }
    sources.forEach(
        (day, hash) ->
            assertThat(fact.getOrDefault(day, ContentHash.empty()))
                .as("backfilled %s", day)
                .isEqualTo(hash));
  }

  /**
   * Two runs of the fact job at once, in threads sharing this process's Flink cluster: of two days
   * (both commit or no-op, each its own slice) or of one day (one commits or no-ops, the other may
   * exit 4 because the same source data got there first; never two commits of the same content).
   */
  private void concurrentRuns(int step) {
    String first = DAYS.get(extra.nextInt(DAYS.size()));
    String second = extra.nextBoolean() ? first : DAYS.get(extra.nextInt(DAYS.size()));
    Map<String, ContentHash> sources = new TreeMap<>();
    DAYS.forEach(d -> sources.put(d, slice("sales.staging_orders", d)));
    Snapshot before = withTable(FACT, Table::currentSnapshot);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CliRun a;
    CliRun b;
    try {
      Future<CliRun> ra = pool.submit(() -> floe(home, "run", factJob, "--slice", first, "--json"));
      Future<CliRun> rb =
          pool.submit(() -> floe(home, "run", factJob, "--slice", second, "--json"));
      a = ra.get();
      b = rb.get();
    } catch (InterruptedException | ExecutionException e) {
      throw new AssertionError(e);
    } finally {
      pool.shutdownNow();
    }
    log.add(
        step
            + ": runs of "
            + first
            + " and "
            + second
            + " at once -> exit "
            + a.exitCode()
            + ", "
            + b.exitCode());
    String both = a.err() + b.err();
    if (first.equals(second)) {
      assertThat(List.of(a.exitCode(), b.exitCode())).as(both).allMatch(c -> c == 0 || c == 4);
      assertThat(List.of(a.exitCode(), b.exitCode())).as(both).contains(0);
    } else {
      assertThat(a.exitCode()).as(a.err()).isZero();
      assertThat(b.exitCode()).as(b.err()).isZero();
    }
    List<Snapshot> added = commitsSince(before);
    long changed =
        java.util.stream.Stream.of(first, second)
            .distinct()
            .filter(d -> !sources.get(d).equals(fact.getOrDefault(d, ContentHash.empty())))
            .count();
    assertThat(added).as("one commit per slice whose content changes").hasSize((int) changed);
    for (Snapshot s : added) {
      String day = dayOf(s.summary().get(LineageKeys.SLICE));
      assertThat(day).isIn(first, second);
      commitToModel(s.summary().get(LineageKeys.RUN_ID), day, sources.get(day));
    }
  }

  /**
   * Snapshot expiry by the table's retention (the model keeps the last {@value #KEEP_LAST}). The
   * content must not change; the commits whose snapshot or parent went can no longer be rolled back
   * or reverted, so the model forgets them.
   */
  private void expire(int step) {
    CliRun run = floe(home, "maintain", FACT, "--expire", "--json");
    log.add(step + ": expire -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    withTable(
        FACT,
        t -> {
          assertThat(SnapshotUtil.currentAncestors(t))
              .as("main keeps its %d newest snapshots and no more", KEEP_LAST)
              .hasSizeBetween(1, KEEP_LAST);
          java.util.Set<Long> alive = new java.util.HashSet<>();
          t.snapshots().forEach(snapshot -> alive.add(snapshot.snapshotId()));
          history.removeIf(
              e -> {
                Snapshot s = snapshotOf(t, e.runId());
                return s == null || (s.parentId() != null && !alive.contains(s.parentId()));
              });
          return null;
        });
  }

  /** The snapshot on {@code table} that run {@code runId} committed, or null if it is gone. */
  private static Snapshot snapshotOf(Table table, String runId) {
    for (Snapshot s : table.snapshots()) {
      if (runId.equals(s.summary().get(LineageKeys.RUN_ID))) {
        return s;
      }
    }
    return null;
  }

  /**
   * `floe late apply` while every slice's window is open (P3D after 2026-10-05 at the latest): it
   * reruns slices of this job whose sources changed since their load, each to exactly its current
   * source; it never touches a slice otherwise, and a second apply right after commits nothing.
   */
  private void lateApply(int step) {
    Map<String, ContentHash> sources = new TreeMap<>();
    DAYS.forEach(d -> sources.put(d, slice("sales.staging_orders", d)));
    Snapshot before = withTable(FACT, Table::currentSnapshot);
    CliRun run = floe(home, "late", "apply", factJob, "--as-of", LATE_AS_OF, "--json");
    log.add(step + ": late apply -> exit " + run.exitCode());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    List<Snapshot> added = commitsSince(before);
    for (Snapshot s : added) {
      String day = dayOf(s.summary().get(LineageKeys.SLICE));
      assertThat(s.summary().get(LineageKeys.JOB)).isEqualTo("fact_orders_daily");
      assertThat(sources.get(day))
          .as("a late rerun of %s commits only a change", day)
          .isNotEqualTo(fact.getOrDefault(day, ContentHash.empty()));
      commitToModel(s.summary().get(LineageKeys.RUN_ID), day, sources.get(day));
    }
    checkInvariants(step);
    Snapshot afterFirst = withTable(FACT, Table::currentSnapshot);
    CliRun again = floe(home, "late", "apply", factJob, "--as-of", LATE_AS_OF, "--json");
    assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
    assertThat(commitsSince(afterFirst)).as("a second late apply commits nothing").isEmpty();
  }

  /** The commits on fact_orders' main history after {@code before} (null: all), oldest first. */
  private List<Snapshot> commitsSince(Snapshot before) {
    return withTable(
        FACT,
        t -> {
          List<Snapshot> snapshots = new ArrayList<>();
          for (Snapshot s : SnapshotUtil.currentAncestors(t)) {
            if (before != null && s.snapshotId() == before.snapshotId()) {
              break;
            }
            snapshots.add(0, s);
          }
          return snapshots;
        });
  }

  // ---- the model -----------------------------------------------------------------------------

  private void commitToModel(String day, ContentHash content) {
    commitToModel(headRunId(), day, content);
  }

  /** Run {@code runId} committed {@code content} to {@code day}: the model and its history. */
  private void commitToModel(String runId, String day, ContentHash content) {
    Map<String, ContentHash> after = new TreeMap<>(fact);
    after.put(day, content);
    history.add(new Entry(runId, day, null, Map.copyOf(fact), Map.copyOf(after)));
    fact = after;
  }

  private void checkInvariants(int step) {
    for (String day : DAYS) {
      assertThat(slice(FACT, day))
          .as("step %d: %s of %s equals the model", step, day, FACT)
          .isEqualTo(fact.getOrDefault(day, ContentHash.empty()));
    }
    Map<Long, String> dimNow = new TreeMap<>();
    List<Object> orderIds = new ArrayList<>();
    withTable(
        DIM,
        t -> {
          rows(t)
              .forEach(
                  r ->
                      assertThat(
                              dimNow.put(
                                  (Long) r.getField("customer_id"),
                                  r.getField("tier") + "@" + r.getField("updated_at")))
                          .as("step %d: one row per customer", step)
                          .isNull());
          return null;
        });
    withTable(
        FACT,
        t -> {
          rows(t).forEach(r -> orderIds.add(r.getField("order_id")));
          return null;
        });
    assertThat(dimNow).as("step %d: %s equals the model", step, DIM).isEqualTo(dim);
    Map<Long, String> eventsNow = new TreeMap<>();
    withTable(
        "sales.order_events",
        t -> {
          rows(t)
              .forEach(
                  r ->
                      assertThat(eventsNow.put((Long) r.getField("order_id"), orderText(r)))
                          .as("step %d: one event per key", step)
                          .isNull());
          return null;
        });
    assertThat(eventsNow).as("step %d: order_events equals the model", step).isEqualTo(events);
    Map<Long, String> copyNow = new TreeMap<>();
    withTable(
        "sales.customer_copy",
        t -> {
          rows(t).forEach(r -> copyNow.put((Long) r.getField("customer_id"), customerText(r)));
          return null;
        });
    assertThat(copyNow).as("step %d: customer_copy equals the model", step).isEqualTo(copy);
    assertThat(orderIds).as("step %d: no duplicate order_id", step).doesNotHaveDuplicates();
    Snapshot head = withTable(FACT, Table::currentSnapshot);
    if (head != null && "overwrite".equals(head.summary().get(LineageKeys.MODE))) {
      String day = dayOf(head.summary().get(LineageKeys.SLICE));
      assertThat(head.summary().get(LineageKeys.CONTENT_HASH))
          .as("step %d: the head's lineage records the content it committed", step)
          .isEqualTo(slice(FACT, day).encode());
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private String headRunId() {
    return withTable(FACT, t -> t.currentSnapshot().summary().get(LineageKeys.RUN_ID));
  }

  private static String dayOf(String sliceLabel) {
    // order_date=[2026-10-03,2026-10-04)
    return sliceLabel.substring(sliceLabel.indexOf('[') + 1, sliceLabel.indexOf(','));
  }

  private static OffsetDateTime at(String tierAt) {
    return OffsetDateTime.parse(tierAt.substring(tierAt.indexOf('@') + 1));
  }

  private static JsonNode json(CliRun run) {
    try {
      return JSON.readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException(run.out(), e);
    }
  }

  private ContentHash slice(String table, String day) {
    return withTable(table, t -> TableContent.hash(t, day(day)));
  }

  private static List<Record> rows(Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      read.forEach(r -> rows.add(r.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static String describe(Iterable<Record> records) {
    List<String> parts = new ArrayList<>();
    records.forEach(
        r ->
            parts.add(
                r.getField("customer_id")
                    + ":"
                    + r.getField("tier")
                    + "@"
                    + r.getField("updated_at")));
    return parts.toString();
  }

  /** Loads the table afresh (the model never trusts a cached head) through one open catalog. */
  private <T> T withTable(String name, Function<Table, T> action) {
    if (catalog == null) {
      catalog = Catalogs.open(CatalogConfigLoader.load(null, home, Map.of(), Map.of()));
    }
    return action.apply(Catalogs.loadTable(catalog, name));
  }

  @AfterEach
  void closeTheCatalog() {
    if (catalog != null) {
      Catalogs.close(catalog);
    }
  }
}
