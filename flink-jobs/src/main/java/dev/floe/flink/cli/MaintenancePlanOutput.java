package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.maintain.Bytes;
import dev.floe.catalog.maintain.plan.LeftOut;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.maintain.plan.TableHealth;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.maintain.ApplyResult;
import dev.floe.flink.maintain.ItemOutcome;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints a maintenance plan and an apply's outcome as text, or as maps for {@code --json}. */
final class MaintenancePlanOutput {
  private MaintenancePlanOutput() {}

  /**
   * {@code --plan} and {@code --apply --dry-run}: the plan and, for the latter, what the budget
   * leaves out ({@code outside}, empty for {@code --plan}); as {@code --json} or text.
   */
  static void writePlan(
      MaintenancePlan plan,
      boolean dryRun,
      Map<PlanItem, String> outside,
      boolean json,
      PrintWriter out) {
    writePlan(plan, dryRun, outside, EffectsReport.NONE, json, out);
  }

  /**
   * As above, with what {@code --notify}'s {@code on_maintenance_done} would send ({@link
   * EffectsReport#NONE} without {@code --notify}: no key in the JSON, no line in the text).
   */
  static void writePlan(
      MaintenancePlan plan,
      boolean dryRun,
      Map<PlanItem, String> outside,
      EffectsReport notified,
      boolean json,
      PrintWriter out) {
    if (json) {
      Map<String, Object> map = planMap(plan, dryRun);
      map.put("outside_budget", outsideBudget(outside));
      map.put("exit_code", exitCode(plan));
      if (!notified.isEmpty()) {
        map.put(ON_DONE, notified.toMap());
      }
      out.println(Json.write(map));
    } else {
      printPlan(plan, dryRun, out);
      printOutsideBudget(outside, out);
      printNotified(notified, out);
    }
  }

  /** {@code --apply}: what was done per item, as {@code --json} (with the exit code) or text. */
  static void writeApply(ApplyResult result, int exitCode, boolean json, PrintWriter out) {
    writeApply(result, exitCode, EffectsReport.NONE, json, out);
  }

  /** As above, with what became of {@code --notify}'s {@code on_maintenance_done}. */
  static void writeApply(
      ApplyResult result, int exitCode, EffectsReport notified, boolean json, PrintWriter out) {
    if (json) {
      Map<String, Object> map = applyMap(result, exitCode);
      if (!notified.isEmpty()) {
        map.put(ON_DONE, notified.toMap());
      }
      out.println(Json.write(map));
    } else {
      printApply(result, out);
      printNotified(notified, out);
    }
  }

  private static final String ON_DONE = "on_maintenance_done";

  private static void printNotified(EffectsReport notified, PrintWriter out) {
    for (String line : notified.lines()) {
      out.printf("%s  %s%n", ON_DONE, line);
    }
  }

  static void printPlan(MaintenancePlan plan, boolean dryRun, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "maintenance plan%s: %d item(s) for %d table(s), as of %s (planned in %.1f s, metadata"
            + " only)%n",
        dryRun ? " (dry run: nothing changed)" : "",
        plan.items().size(),
        plan.health().size(),
        plan.asOf(),
        plan.elapsedMillis() / 1000.0);
    if (plan.isEmpty()) {
      out.println(
          plan.unreadable().isEmpty()
              ? "  nothing to do: every table is within its policy"
              : "  nothing to do in the tables read: each is within its policy");
    }
    int rank = 1;
    for (PlanItem item : plan.items()) {
      printItem(rank++, item, null, out);
    }
    printLeftOut(plan, out);
  }

  static void printApply(ApplyResult result, PrintWriter out) {
    MaintenancePlan plan = result.plan();
    out.printf(
        Locale.ROOT,
        "maintenance apply: %d done, %d nothing to do, %d failed, %d not started, of %d item(s)"
            + " for %d table(s) (planned in %.1f s, applied in %.1f s)%n",
        result.count(ItemOutcome.Status.DONE),
        result.count(ItemOutcome.Status.NOTHING_TO_DO),
        result.count(ItemOutcome.Status.FAILED),
        result.count(ItemOutcome.Status.NOT_STARTED),
        plan.items().size(),
        plan.health().size(),
        plan.elapsedMillis() / 1000.0,
        result.elapsedMillis() / 1000.0);
    if (plan.isEmpty()) {
      out.println(
          plan.unreadable().isEmpty()
              ? "  nothing to do: every table is within its policy"
              : "  nothing to do in the tables read: each is within its policy");
    }
    int rank = 1;
    for (ItemOutcome outcome : result.outcomes()) {
      printItem(rank++, outcome.item(), outcome, out);
    }
    printLeftOut(plan, out);
    if (result.count(ItemOutcome.Status.NOT_STARTED) > 0) {
      out.println("  items not started are planned again by the next --apply");
    }
  }

  private static void printItem(int rank, PlanItem item, ItemOutcome outcome, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "%3d  %-17s %-40s score %-6d %d -> %d %s%s%s%n",
        rank,
        item.action().text(),
        item.target(),
        item.score(),
        item.before(),
        item.after(),
        item.unit(),
        item.bytesToRewrite() > 0 ? ", rewrites " + Bytes.format(item.bytesToRewrite()) : "",
        item.bytesToDelete() > 0 ? ", deletes " + Bytes.format(item.bytesToDelete()) : "");
    item.reasons().forEach(reason -> out.println("       why: " + reason));
    if (outcome != null) {
      out.println(
          "       "
              + outcome.status().text()
              + (outcome.detail() == null || outcome.detail().isEmpty()
                  ? ""
                  : ": " + outcome.detail())
              + (outcome.status() == ItemOutcome.Status.FAILED
                  ? " (exit " + outcome.exitCode() + ")"
                  : ""));
    }
  }

  private static void printLeftOut(MaintenancePlan plan, PrintWriter out) {
    if (!plan.leftOut().isEmpty()) {
      out.printf("left out (%d):%n", plan.leftOut().size());
      for (LeftOut left : plan.leftOut()) {
        out.printf(
            "  %s %s: %s%n", left.item().action().text(), left.item().target(), left.reason());
      }
    }
    Map<String, List<String>> problems = problems(plan);
    if (!problems.isEmpty()) {
      out.printf("problems (%d table(s) only partly read):%n", problems.size());
      problems.forEach(
          (table, lines) -> lines.forEach(line -> out.printf("  %s: %s%n", table, line)));
    }
    if (!plan.unreadable().isEmpty()) {
      out.printf("not planned (%d table(s) could not be read):%n", plan.unreadable().size());
      plan.unreadable().forEach((table, reason) -> out.printf("  %s: %s%n", table, reason));
    }
  }

  /**
   * Items an apply's budget leaves for a later run, with the reason ({@code --apply --dry-run}).
   */
  static void printOutsideBudget(Map<PlanItem, String> outside, PrintWriter out) {
    if (outside.isEmpty()) {
      return;
    }
    out.printf("outside the budget, left for a later --apply (%d):%n", outside.size());
    outside.forEach(
        (item, reason) -> out.printf("  %s %s: %s%n", item.action().text(), item.target(), reason));
  }

  static List<Map<String, Object>> outsideBudget(Map<PlanItem, String> outside) {
    List<Map<String, Object>> list = new ArrayList<>();
    outside.forEach(
        (item, reason) -> {
          Map<String, Object> entry = itemMap(item);
          entry.put("outside_because", reason);
          list.add(entry);
        });
    return list;
  }

  /** Table -> what could not be read of it, for tables read only in part. */
  private static Map<String, List<String>> problems(MaintenancePlan plan) {
    Map<String, List<String>> problems = new java.util.TreeMap<>();
    for (TableHealth health : plan.health()) {
      if (!health.problems().isEmpty()) {
        problems.put(health.table(), health.problems());
      }
    }
    return problems;
  }

  /** A plan's exit code: 2 when a table could not be read, whatever else it plans. */
  static int exitCode(MaintenancePlan plan) {
    return plan.unreadable().isEmpty() ? ExitCodes.OK : ExitCodes.INVALID_INPUT;
  }

  /**
   * Each table that could not be read, as the error line a failed command prints on stderr, naming
   * the table when its reason does not.
   */
  static void printUnreadable(MaintenancePlan plan, PrintWriter err) {
    new java.util.TreeMap<>(plan.unreadable())
        .forEach(
            (table, reason) ->
                err.println(
                    "floe: "
                        + (reason.contains(table)
                            ? reason
                            : "Cannot plan maintenance of " + table + ": " + reason)));
  }

  static Map<String, Object> planMap(MaintenancePlan plan, boolean dryRun) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("dry_run", dryRun);
    map.put("as_of", plan.asOf().toString());
    map.put("tables", plan.health().size());
    map.put("planning_millis", plan.elapsedMillis());
    List<Map<String, Object>> items = new ArrayList<>();
    int rank = 1;
    for (PlanItem item : plan.items()) {
      Map<String, Object> entry = itemMap(item);
      entry.put("rank", rank++);
      items.add(entry);
    }
    map.put("items", items);
    List<Map<String, Object>> left = new ArrayList<>();
    for (LeftOut leftOut : plan.leftOut()) {
      Map<String, Object> entry = itemMap(leftOut.item());
      entry.put("left_out_because", leftOut.reason());
      left.add(entry);
    }
    map.put("left_out", left);
    map.put("problems", problems(plan));
    map.put("unreadable", new LinkedHashMap<>(new java.util.TreeMap<>(plan.unreadable())));
    return map;
  }

  /**
   * @param exitCode the process's exit code (an unreadable table makes it 2 even when every item
   *     succeeded), so that {@code exit_code} says what the shell sees
   */
  static Map<String, Object> applyMap(ApplyResult result, int exitCode) {
    Map<String, Object> map = planMap(result.plan(), false);
    map.put("apply_millis", result.elapsedMillis());
    map.put("exit_code", exitCode);
    List<Map<String, Object>> items = new ArrayList<>();
    int rank = 1;
    for (ItemOutcome outcome : result.outcomes()) {
      Map<String, Object> entry = itemMap(outcome.item());
      entry.put("rank", rank++);
      entry.put("status", outcome.status().text());
      entry.put("exit_code", outcome.exitCode());
      entry.put("detail", outcome.detail());
      items.add(entry);
    }
    map.put("items", items);
    return map;
  }

  private static Map<String, Object> itemMap(PlanItem item) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("table", item.table());
    entry.put("action", item.action().text());
    entry.put("slice", item.slice().orElse(null));
    entry.put("score", item.score());
    entry.put("reasons", item.reasons());
    entry.put("before", item.before());
    entry.put("after", item.after());
    entry.put("unit", item.unit());
    entry.put("bytes_to_rewrite", item.bytesToRewrite());
    entry.put("bytes_to_delete", item.bytesToDelete());
    return entry;
  }
}
