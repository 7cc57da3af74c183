package dev.floe.catalog.report;

import dev.floe.catalog.maintain.Bytes;
import dev.floe.catalog.maintain.plan.LeftOut;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.maintain.plan.TableHealth;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.util.Locale;

/**
 * The report's maintenance section: the table's health against its maintenance policy (small files,
 * deletes, manifests, snapshots, orphans, last maintenance) and the top items of its plan.
 */
final class MaintenanceHtml {
  /** How many plan items the page lists. */
  static final int TOP_ITEMS = 5;

  private MaintenanceHtml() {}

  static void render(ReportModel model, StringBuilder html) {
    html.append("<section>\n<h2>Maintenance</h2>\n");
    if (model.maintenanceProblem() != null) {
      html.append("<p class=\"muted\">Cannot read the maintenance policy: ")
          .append(Html.escape(model.maintenanceProblem()))
          .append("</p>\n</section>\n");
      return;
    }
    MaintenancePlan plan = model.maintenance();
    TableHealth health = plan.health().get(0);
    MaintenancePolicy policy = health.policy();
    html.append(
        "<p class=\"muted\">The table's numbers (current snapshot, from metadata) against the"
            + " policy it carries (table spec <code>maintenance:</code> and"
            + " <code>retention:</code>). <code>floe maintain --plan</code> ranks this work"
            + " across tables; <code>--apply</code> runs it.</p>\n");
    html.append("<table>\n<tr><th>measure</th><th>now</th><th>policy</th></tr>\n");
    row(
        html,
        "small data files",
        health.smallFiles() + " of " + health.dataFiles(),
        "below "
            + Bytes.format(MaintenancePolicy.smallFileLimit(health.targetFileSizeBytes()))
            + "; compact a partition from "
            + policy.minInputFiles()
            + " small files ("
            + policy.strategy().text()
            + ")");
    row(
        html,
        "delete files",
        health.deleteFiles()
            + String.format(
                Locale.ROOT, " (%.1f%% of rows deleted)", 100 * health.deletedRowRatio()),
        String.format(
            Locale.ROOT,
            "rewrite at %d per data file or %.1f%% of rows",
            policy.deleteFileThreshold(),
            100 * policy.deletedRowRatio()));
    row(
        html,
        "data manifests",
        String.valueOf(health.dataManifests()),
        "rewrite above " + policy.maxManifests());
    row(
        html,
        "snapshots",
        health.snapshots() + " (" + health.snapshotsBeyondRetention() + " beyond retention)",
        policy
            .retention()
            .map(
                r ->
                    "keep_last "
                        + (r.keepLast() == null ? "-" : r.keepLast())
                        + ", max_age "
                        + (r.maxAge() == null ? "-" : r.maxAge()))
            .orElse("no retention: nothing expires"));
    row(
        html,
        "orphan files",
        health.orphanFiles() < 0
            ? "unknown"
            : health.orphanFiles() + " (" + Bytes.format(health.orphanBytes()) + ")",
        "delete when older than " + policy.effectiveOrphanMinAge());
    row(
        html,
        "last maintenance",
        health.lastMaintenance().map(Html::time).orElse("none kept in the metadata"),
        "compaction or manifest rewrite (a replace snapshot)");
    html.append("</table>\n");
    for (String problem : health.problems()) {
      html.append("<p class=\"muted\">").append(Html.escape(problem)).append("</p>\n");
    }
    if (plan.isEmpty()) {
      html.append("<p>Nothing to do: the table is within its policy.</p>\n");
    } else {
      html.append("<h3>Plan: top items</h3>\n<ol>\n");
      plan.items().stream().limit(TOP_ITEMS).forEach(item -> item(item, null, html));
      html.append("</ol>\n");
    }
    if (!plan.leftOut().isEmpty()) {
      html.append("<p class=\"muted\">Left alone:</p>\n<ul>\n");
      for (LeftOut left : plan.leftOut()) {
        item(left.item(), left.reason(), html);
      }
      html.append("</ul>\n");
    }
    html.append("</section>\n");
  }

  private static void item(PlanItem item, String leftOut, StringBuilder html) {
    html.append("<li><b>")
        .append(Html.escape(item.action().text()))
        .append("</b> ")
        .append(Html.escape(item.slice().map(slice -> slice + " ").orElse("")))
        .append("\u00b7 ")
        .append(item.before())
        .append(" \u2192 ")
        .append(item.after())
        .append(' ')
        .append(Html.escape(item.unit()));
    if (item.bytesToRewrite() > 0) {
      html.append(" \u00b7 rewrites ").append(Html.escape(Bytes.format(item.bytesToRewrite())));
    }
    html.append("<br><span class=\"muted\">")
        .append(Html.escape(String.join("; ", item.reasons())));
    if (leftOut != null) {
      html.append(" \u2014 ").append(Html.escape(leftOut));
    }
    html.append("</span></li>\n");
  }

  private static void row(StringBuilder html, String measure, String now, String policy) {
    html.append("<tr><td>")
        .append(Html.escape(measure))
        .append("</td><td>")
        .append(Html.escape(now))
        .append("</td><td>")
        .append(Html.escape(policy))
        .append("</td></tr>\n");
  }
}
