package dev.floe.catalog.report;

import dev.floe.catalog.lineage.Lineage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The snapshot timeline, newest first: every snapshot with its lane (main, a branch, off main, or ?
 * before an expiry cut), Floe's run label, revert and publish marks, and its branches and tags;
 * head moves (rollbacks) interleaved at the time they were committed.
 */
final class TimelineHtml {

  private TimelineHtml() {}

  static void render(ReportModel model, StringBuilder html) {
    if (model.snapshots().isEmpty()) {
      html.append("<p class=\"muted\">The table has no snapshots yet.</p>\n");
      return;
    }
    record Item(java.time.Instant at, int order, Object value) {}
    List<Item> items = new ArrayList<>();
    model.snapshots().forEach(s -> items.add(new Item(s.committedAt(), items.size(), s)));
    // A head move sorts above the snapshots of the same millisecond: it was committed after them.
    model.headMoves().forEach(m -> items.add(new Item(m.at(), items.size(), m)));
    items.sort(
        Comparator.comparing(Item::at)
            .reversed()
            .thenComparing(i -> i.value() instanceof HeadMove ? 0 : 1)
            .thenComparingInt(Item::order));
    html.append("<ol class=\"timeline\">\n");
    for (Item item : items) {
      if (item.value() instanceof HeadMove move) {
        move(move, html);
      } else {
        snapshot((TimelineSnapshot) item.value(), html);
      }
    }
    html.append("</ol>\n");
  }

  private static void snapshot(TimelineSnapshot s, StringBuilder html) {
    String laneClass =
        s.lane().equals("main")
            ? "main"
            : s.lane().equals(TimelineSnapshot.OFF_MAIN)
                    || s.lane().equals(TimelineSnapshot.BEFORE_CUT)
                ? "off"
                : "branch";
    html.append("<li class=\"snap ").append(laneClass);
    if (s.current()) {
      html.append(" current");
    }
    if (s.revertsRun() != null) {
      html.append(" revert");
    }
    html.append("\"><span class=\"dot\"></span><time>")
        .append(Html.time(s.committedAt()))
        .append("</time><code class=\"id\">")
        .append(s.snapshotId())
        .append("</code><span class=\"op\">")
        .append(Html.escape(s.operation()))
        .append("</span><span class=\"lane\">")
        .append(Html.escape(s.lane()))
        .append("</span>");
    if (s.current()) {
      html.append("<span class=\"badge cur\">current</span>");
    }
    if (s.revertsRun() != null) {
      html.append("<span class=\"badge rev\">revert of run ")
          .append(Html.escape(s.revertsRun()))
          .append("</span>");
    }
    if (s.publishedFrom() != null) {
      html.append("<span class=\"badge pub\">publish of snapshot ")
          .append(Html.escape(s.publishedFrom()))
          .append("</span>");
    }
    for (RefMark ref : s.refs()) {
      html.append("<span class=\"badge ")
          .append(refClass(ref.kind()))
          .append("\">")
          .append(ref.isBranch() ? "branch " : "tag ")
          .append(Html.escape(ref.name()))
          .append("</span>");
    }
    html.append("<span class=\"what\">").append(Html.escape(describe(s))).append("</span>");
    html.append("</li>\n");
  }

  private static String describe(TimelineSnapshot s) {
    if (s.lineage().isPresent()) {
      Lineage lineage = s.lineage().get();
      return lineage.job()
          + " \u00b7 "
          + lineage.slice()
          + " \u00b7 "
          + Html.count(lineage.rows(), "row")
          + " \u00b7 run "
          + lineage.runId()
          + (lineage.backfillId() == null ? "" : " \u00b7 backfill " + lineage.backfillId());
    }
    return (s.revertsRun() != null ? "" : "not a Floe run \u00b7 ")
        + "+"
        + s.addedRows()
        + " / \u2212"
        + s.deletedRows()
        + " rows";
  }

  private static void move(HeadMove move, StringBuilder html) {
    html.append("<li class=\"move ")
        .append(move.direction().name().toLowerCase(java.util.Locale.ROOT))
        .append("\"><span class=\"dot\"></span><time>")
        .append(Html.time(move.at()))
        .append("</time><span class=\"badge mv\">")
        .append(Html.escape(move.direction().text()))
        .append("</span><span class=\"what\">main: ")
        .append(move.fromSnapshotId())
        .append(" \u2192 ")
        .append(move.toSnapshotId())
        .append(" \u00b7 ")
        .append(
            move.tags().isEmpty()
                ? "the old head has no floe-before-rollback tag"
                : "old head kept as tag " + Html.escape(String.join(", ", move.tags())))
        .append("</span></li>\n");
  }

  private static String refClass(RefMark.Kind kind) {
    return switch (kind) {
      case MAIN -> "ref-main";
      case AUDIT_BRANCH -> "ref-audit";
      case BRANCH -> "ref-branch";
      case ROLLBACK_TAG -> "ref-rbtag";
      case TAG -> "ref-tag";
    };
  }
}
