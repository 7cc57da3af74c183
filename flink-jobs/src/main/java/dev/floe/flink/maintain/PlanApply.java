package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.maintain.Expire;
import dev.floe.catalog.maintain.ExpirePlan;
import dev.floe.catalog.maintain.ManifestRewrite;
import dev.floe.catalog.maintain.ManifestRewritePlan;
import dev.floe.catalog.maintain.OrphanFiles;
import dev.floe.catalog.maintain.OrphanFilesPlan;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.maintain.plan.TableHealth;
import dev.floe.catalog.slice.Slice;
import dev.floe.flink.job.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Works through a {@link MaintenancePlan} within a budget: {@code floe maintain --apply}. Items are
 * taken highest rank first while they fit {@code --max-tables} (tables touched) and {@code
 * --max-bytes} (bytes rewritten); the rest are reported as not started, and the next run, which
 * plans again, picks them up. Each table's items run through the existing entry points in the order
 * {@code floe maintain} uses (compact its slices in one {@link Compaction}, one commit per slice,
 * after checking each slice alone so that one compaction refuses fails only its own item; rewrite
 * each slice's position deletes, as {@code --rewrite-position-deletes --slice}, one commit each;
 * rewrite manifests; expire; orphans), so every commit is what the manual command makes. A table
 * that fails is reported and the others go on; {@link ApplyResult#exitCode()} says so.
 */
public final class PlanApply {
  private final CatalogConfig catalog;
  private final MaintenancePlan plan;
  private Long maxBytes;
  private Integer maxTables;
  private Timeout timeout;
  private Instant timeoutFrom;
  private Clock clock = Clock.systemUTC();
  private FailurePoint failAt = FailurePoint.NONE;

  private PlanApply(CatalogConfig catalog, MaintenancePlan plan) {
    this.catalog = catalog;
    this.plan = plan;
  }

  public static PlanApply of(CatalogConfig catalog, MaintenancePlan plan) {
    return new PlanApply(catalog, plan);
  }

  /** At most this many bytes rewritten (compaction input); null for no limit. */
  public PlanApply maxBytes(Long value) {
    this.maxBytes = value;
    return this;
  }

  /** At most this many tables touched; null for no limit. */
  public PlanApply maxTables(Integer value) {
    this.maxTables = value;
    return this;
  }

  /** How long the whole apply may take; null for no limit. No table starts after it passed. */
  public PlanApply timeout(Timeout value) {
    this.timeout = value;
    return this;
  }

  /**
   * When the timeout starts counting; default: when {@link #run()} starts. {@code floe maintain
   * --apply} passes the moment before it planned, so that {@code --timeout} covers planning too.
   */
  public PlanApply timeoutFrom(Instant value) {
    this.timeoutFrom = value;
    return this;
  }

  /** The clock for retention, orphan ages and the timeout. */
  public PlanApply clock(Clock value) {
    this.clock = value;
    return this;
  }

  /** Test seam: a failure injected into every compaction (see {@code --inject-failure}). */
  public PlanApply failAt(FailurePoint value) {
    this.failAt = value;
    return this;
  }

  /**
   * The items within the budget, in rank order, and those outside it with the reason. Pure: reads
   * nothing.
   */
  public Selection select() {
    List<PlanItem> chosen = new ArrayList<>();
    Map<PlanItem, String> outside = new LinkedHashMap<>();
    Set<String> tables = new LinkedHashSet<>();
    long bytes = 0;
    for (PlanItem item : plan.items()) {
      boolean newTable = !tables.contains(item.table());
      if (newTable && maxTables != null && tables.size() >= maxTables) {
        outside.put(item, "outside the budget: --max-tables " + maxTables + " reached");
        continue;
      }
      if (maxBytes != null && bytes + item.bytesToRewrite() > maxBytes) {
        outside.put(
            item,
            "outside the budget: rewriting "
                + item.bytesToRewrite()
                + " more bytes would pass --max-bytes "
                + maxBytes);
        continue;
      }
      bytes += item.bytesToRewrite();
      tables.add(item.table());
      chosen.add(item);
    }
    return new Selection(chosen, outside);
  }

  /** The chosen items and the ones left for a later run. */
  public record Selection(List<PlanItem> chosen, Map<PlanItem, String> outside) {}

  /** Runs the chosen items; never throws for one table's failure. */
  public ApplyResult run() {
    long started = System.nanoTime(); // timing for the report only
    Deadline deadline =
        timeout == null
            ? null
            : Deadline.after(
                timeout, timeoutFrom == null ? clock : Clock.fixed(timeoutFrom, ZoneOffset.UTC));
    Selection selection = select();
    Map<String, List<PlanItem>> byTable = new LinkedHashMap<>();
    for (PlanItem item : selection.chosen()) {
      byTable.computeIfAbsent(item.table(), t -> new ArrayList<>()).add(item);
    }
    Map<String, TableHealth> health = new HashMap<>();
    plan.health().forEach(h -> health.put(h.table(), h));
    Map<PlanItem, ItemOutcome> outcomes = new HashMap<>();
    for (Map.Entry<String, List<PlanItem>> entry : byTable.entrySet()) {
      if (deadline != null && deadline.passed(clock)) {
        for (PlanItem item : entry.getValue()) {
          outcomes.put(
              item,
              new ItemOutcome(
                  item,
                  ItemOutcome.Status.NOT_STARTED,
                  ExitCodes.TIMED_OUT,
                  "not started: --timeout " + timeout.text() + " passed"));
        }
        continue;
      }
      runTable(entry.getKey(), entry.getValue(), health.get(entry.getKey()), deadline, outcomes);
    }
    List<ItemOutcome> ordered = new ArrayList<>();
    for (PlanItem item : plan.items()) {
      ItemOutcome outcome = outcomes.get(item);
      if (outcome == null) {
        outcome =
            new ItemOutcome(
                item, ItemOutcome.Status.NOT_STARTED, ExitCodes.OK, selection.outside().get(item));
      }
      ordered.add(outcome);
    }
    return new ApplyResult(plan, ordered, (System.nanoTime() - started) / 1_000_000);
  }

  private void runTable(
      String name,
      List<PlanItem> items,
      TableHealth health,
      Deadline deadline,
      Map<PlanItem, ItemOutcome> outcomes) {
    List<PlanItem> compactions = new ArrayList<>();
    for (PlanItem item : items) {
      if (item.action() == PlanAction.COMPACT) {
        compactions.add(item);
      }
    }
    if (!compactions.isEmpty()) {
      compact(name, compactions, health, deadline, outcomes);
    }
    // After compaction, which may have applied (and removed) some of them.
    for (PlanItem item : items) {
      if (item.action() == PlanAction.REWRITE_POSITION_DELETES) {
        outcomes.put(item, rewritePositionDeletes(name, item));
      }
    }
    for (PlanAction action :
        List.of(PlanAction.REWRITE_MANIFESTS, PlanAction.EXPIRE, PlanAction.ORPHANS)) {
      for (PlanItem item : items) {
        if (item.action() == action) {
          outcomes.put(item, metadataAction(name, item));
        }
      }
    }
  }

  private void compact(
      String name,
      List<PlanItem> items,
      TableHealth health,
      Deadline deadline,
      Map<PlanItem, ItemOutcome> outcomes) {
    // A slice compaction refuses (say one the partition spec no longer cuts) fails alone: each is
    // checked first, and the others are compacted together as before.
    List<PlanItem> valid = new ArrayList<>();
    for (PlanItem item : items) {
      try {
        Compaction.of(catalog, name).slices(List.of(item.slice().orElseThrow())).check();
        valid.add(item);
      } catch (RuntimeException e) {
        outcomes.put(item, failed(item, e));
      }
    }
    if (valid.isEmpty()) {
      return;
    }
    items = valid;
    List<String> slices = items.stream().map(item -> item.slice().orElseThrow()).toList();
    Compaction compaction = Compaction.of(catalog, name).slices(slices).failAt(failAt);
    if (health != null) {
      compaction.targetFileSizeBytes(health.targetFileSizeBytes());
    }
    if (deadline != null) {
      Duration left = Duration.ofMillis(Math.max(1, deadline.remainingMillis(clock)));
      compaction.timeout(new Timeout(left, timeout.text(), "--timeout"));
    }
    try {
      CompactionResult result = compaction.commit();
      for (int i = 0; i < items.size(); i++) {
        SliceCompaction slice = result.slices().get(i);
        ItemOutcome.Status status =
            switch (slice.status()) {
              case COMPACTED, SUBMITTED -> ItemOutcome.Status.DONE;
              case NOTHING_TO_COMPACT, WOULD_COMPACT -> ItemOutcome.Status.NOTHING_TO_DO;
              case FAILED -> ItemOutcome.Status.FAILED;
            };
        outcomes.put(
            items.get(i), new ItemOutcome(items.get(i), status, slice.exitCode(), slice.detail()));
      }
    } catch (RuntimeException e) {
      for (PlanItem item : items) {
        outcomes.put(item, failed(item, e));
      }
    }
  }

  /** One slice's position-delete rewrite, as {@code --rewrite-position-deletes --slice} does. */
  private ItemOutcome rewritePositionDeletes(String name, PlanItem item) {
    Catalog opened = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(opened, name);
      PositionDeleteRewrite rewrite = PositionDeleteRewrite.of(table, name);
      rewrite.checkFormat();
      Slice slice =
          CompactionSlices.resolve(name, table, List.of(item.slice().orElseThrow())).get(0);
      PositionDeleteRewrite.Result done = rewrite.rewrite(slice);
      return outcome(
          item,
          done.snapshotId() != null,
          done.snapshotId() == null
              ? "nothing to rewrite"
              : String.format(
                  Locale.ROOT,
                  "rewrote %d position delete file(s) -> %d; %d dangling entr%s dropped; snapshot"
                      + " %d",
                  done.replaced(),
                  done.written(),
                  done.dropped(),
                  done.dropped() == 1 ? "y" : "ies",
                  done.snapshotId()));
    } catch (RuntimeException e) {
      return failed(item, e);
    } finally {
      Catalogs.close(opened);
    }
  }

  private ItemOutcome metadataAction(String name, PlanItem item) {
    Catalog opened = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(opened, name);
      return switch (item.action()) {
        case REWRITE_MANIFESTS -> {
          ManifestRewritePlan done = ManifestRewrite.of(table, name).commit();
          yield outcome(item, done.changed(), String.join("; ", done.lines()));
        }
        case EXPIRE -> {
          ExpirePlan done = Expire.of(table, name).clock(clock).commit();
          yield outcome(
              item,
              done.changed(),
              "expired "
                  + done.expired().size()
                  + " snapshot(s), deleted "
                  + done.deletedFiles().size()
                  + " file(s)");
        }
        case ORPHANS -> {
          OrphanFilesPlan done = OrphanFiles.of(table, name).clock(clock).commit();
          yield outcome(
              item,
              !done.orphans().isEmpty(),
              "deleted " + done.orphans().size() + " orphan file(s)");
        }
        case COMPACT, REWRITE_POSITION_DELETES ->
            throw new IllegalStateException("Cannot run " + item.action().text() + " as metadata");
      };
    } catch (RuntimeException e) {
      return failed(item, e);
    } finally {
      Catalogs.close(opened);
    }
  }

  private static ItemOutcome outcome(PlanItem item, boolean changed, String detail) {
    return new ItemOutcome(
        item,
        changed ? ItemOutcome.Status.DONE : ItemOutcome.Status.NOTHING_TO_DO,
        ExitCodes.OK,
        detail);
  }

  private static ItemOutcome failed(PlanItem item, RuntimeException e) {
    int code = e instanceof FloeException floe ? floe.exitCode() : ExitCodes.UNEXPECTED;
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return new ItemOutcome(
        item, ItemOutcome.Status.FAILED, code, message.lines().findFirst().orElse(message));
  }
}
