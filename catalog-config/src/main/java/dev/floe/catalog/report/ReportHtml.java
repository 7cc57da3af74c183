package dev.floe.catalog.report;

import dev.floe.catalog.window.SliceLoad;
import java.util.Map;

/**
 * Renders a {@link ReportModel} as one self-contained HTML page: inline CSS, no script, and a
 * content security policy that forbids loading anything, so the page works offline and cannot call
 * out. Every string from the table is escaped. The page is a pure function of the model.
 */
public final class ReportHtml {

  private ReportHtml() {}

  public static String render(ReportModel model) {
    StringBuilder html = new StringBuilder(16_384);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
        .append(" style-src 'unsafe-inline'\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>Floe report \u00b7 ")
        .append(Html.escape(model.table()))
        .append("</title>\n<style>")
        .append(ReportCss.CSS)
        .append("</style>\n</head>\n<body>\n");
    header(model, html);
    slices(model, html);
    html.append("<section>\n<h2>Snapshot timeline</h2>\n");
    html.append(
        "<p class=\"muted\">Every snapshot the table metadata keeps, newest first. Lane"
            + " <b>main</b>: the current snapshot and its ancestors; a branch name: only on that"
            + " branch (e.g. an audit branch); <b>off main</b>: left behind by a rollback;"
            + " <b>?</b>: older than where an expiry cut main's history, so whether main held it"
            + " cannot be told (a tag keeps it).</p>\n");
    TimelineHtml.render(model, html);
    html.append("</section>\n");
    MaintenanceHtml.render(model, html);
    inputs(model, html);
    html.append("</body>\n</html>\n");
    return html.toString();
  }

  private static void header(ReportModel model, StringBuilder html) {
    Map<SliceState, Integer> counts = model.counts();
    html.append("<header>\n<h1>")
        .append(Html.escape(model.table()))
        .append("</h1>\n<p class=\"lede\">Floe slice report as of <b>")
        .append(Html.time(model.asOf()))
        .append("</b> \u00b7 late-data window <b>")
        .append(Html.escape(model.lateDataWindow()))
        .append("</b></p>\n<div class=\"chips\">");
    for (Map.Entry<SliceState, Integer> count : counts.entrySet()) {
      html.append("<span class=\"chip\"><span class=\"sw ")
          .append(Heatmap.stateClass(count.getKey()))
          .append("\"></span>")
          .append(Html.escape(count.getKey().text()))
          .append(" <b>")
          .append(count.getValue())
          .append("</b></span>");
    }
    html.append("<span class=\"chip\">snapshots <b>")
        .append(model.snapshots().size())
        .append("</b></span><span class=\"chip\">rollbacks <b>")
        .append(model.rollbacks())
        .append("</b></span><span class=\"chip\">reverts <b>")
        .append(model.reverts())
        .append("</b></span></div>\n</header>\n");
  }

  private static void slices(ReportModel model, StringBuilder html) {
    html.append("<section>\n<h2>Slices</h2>\n");
    legend(model, html);
    if (!model.slices().isEmpty()) {
      Heatmap.render(
          model.slices(),
          model.historyCutAt() == null
              ? "not loaded"
              : "no load in the history kept since an expiry cut it at snapshot "
                  + model.historyCutAt(),
          html);
      if (model.historyCutAt() != null) {
        html.append("<p class=\"muted\">An expiry cut main's history at snapshot <code>")
            .append(model.historyCutAt())
            .append("</code>: slices whose loads are all older are not shown.</p>\n");
      }
    } else if (model.historyCutAt() != null) {
      html.append("<p class=\"muted\">No Floe load of a slice is in the history the table keeps:")
          .append(" an expiry cut main's history at snapshot <code>")
          .append(model.historyCutAt())
          .append("</code>, and older loads are not seen.</p>\n");
    } else {
      html.append("<p class=\"muted\">No Floe run has loaded a slice of this table yet.</p>\n");
    }
    restoredFromExpiredHistory(model, html);
    if (!model.unplacedLoads().isEmpty()) {
      html.append("<p class=\"muted\">Loads that are not a slice of the table: ");
      boolean first = true;
      for (Map.Entry<String, Integer> entry : model.unplacedLoads().entrySet()) {
        html.append(first ? "" : ", ")
            .append("<code>")
            .append(Html.escape(entry.getKey()))
            .append("</code> (")
            .append(Html.count(entry.getValue(), "commit"))
            .append(')');
        first = false;
      }
      html.append(" \u2014 <code>*</code> is the whole table.</p>\n");
    }
    details(model, html);
    html.append("</section>\n");
  }

  private static void restoredFromExpiredHistory(ReportModel model, StringBuilder html) {
    if (model.restoredFromExpiredHistory().isEmpty()) {
      return;
    }
    html.append("<p class=\"muted\">Slices whose load history was expired (a revert restored")
        .append(" content loaded before snapshot <code>")
        .append(model.historyCutAt())
        .append("</code>, where an expiry cut main's history): ");
    boolean first = true;
    for (SliceLoad revert : model.restoredFromExpiredHistory()) {
      html.append(first ? "" : ", ")
          .append("<code>")
          .append(Html.escape(String.valueOf(revert.lineage().slice())))
          .append("</code> (")
          .append(Html.escape(revert.lineage().job()))
          .append(", ")
          .append(Html.count(revert.lineage().rows(), "row"))
          .append(" after revert run <code>")
          .append(Html.escape(revert.lineage().runId()))
          .append("</code> at snapshot <code>")
          .append(revert.snapshotId())
          .append("</code>)");
      first = false;
    }
    html.append(".</p>\n");
  }

  private static void legend(ReportModel model, StringBuilder html) {
    html.append("<ul class=\"legend\">\n");
    legendItem(html, SliceState.LOADED, "one Floe commit loaded the slice");
    legendItem(html, SliceState.RELOADED, "more than one Floe commit loaded it");
    legendItem(
        html,
        SliceState.LATE_DATA_PENDING,
        "a source of the latest run has rows of the slice that arrived after the snapshot the"
            + " run read");
    legendItem(
        html,
        SliceState.SEALED,
        model.hasWindow()
            ? "slice end + " + model.lateDataWindow() + " \u2264 as-of: the slice is final"
            : "never: this table has no late-data window (table property"
                + " floe.late-data.window), so no slice is sealed");
    html.append(
        model.historyCutAt() == null
            ? "<li><span class=\"sw none\"></span><b>not loaded</b> \u2014 a gap: no Floe commit"
                + " on the current history loaded this slice</li>\n"
            : "<li><span class=\"sw none\"></span><b>no load kept</b> \u2014 a gap: no Floe"
                + " commit in the history kept since an expiry cut it loaded this slice</li>\n");
    html.append(
        "<li><span class=\"sw s-sealed unknown\"></span><b>?</b> \u2014 late rows unknown (the"
            + " source lacks the column, or its history was expired or rolled back)</li>\n");
    html.append(
        "<li><span class=\"sw s-sealed reported\"></span><b>dot</b> \u2014 late rows arrived"
            + " after the window closed: reported, not reloaded</li>\n");
    html.append("</ul>\n<p class=\"muted\">Hover a cell for its lineage.</p>\n");
  }

  private static void legendItem(StringBuilder html, SliceState state, String meaning) {
    html.append("<li><span class=\"sw ")
        .append(Heatmap.stateClass(state))
        .append("\"></span><b>")
        .append(Html.escape(state.text()))
        .append("</b> \u2014 ")
        .append(Html.escape(meaning))
        .append("</li>\n");
  }

  private static void details(ReportModel model, StringBuilder html) {
    if (model.slices().isEmpty()) {
      return;
    }
    html.append("<details><summary>All ")
        .append(Html.count(model.slices().size(), "slice"))
        .append(" as a table</summary>\n<table>\n<thead><tr><th>slice</th><th>state</th>")
        .append("<th>loads</th><th>latest run</th><th>job</th><th>rows</th>")
        .append("<th>committed</th><th>window</th><th>late rows</th></tr></thead>\n<tbody>\n");
    for (SliceStatus slice : model.slices()) {
      var latest = slice.latest();
      html.append("<tr><td><code>")
          .append(Html.escape(slice.slice().label()))
          .append("</code></td><td><span class=\"sw ")
          .append(Heatmap.stateClass(slice.state()))
          .append("\"></span>")
          .append(Html.escape(slice.state().text()))
          .append("</td><td>")
          .append(slice.loads().size())
          .append("</td><td><code>")
          .append(Html.escape(latest.lineage().runId()))
          .append("</code></td><td>")
          .append(Html.escape(latest.lineage().job()))
          .append("</td><td>")
          .append(latest.lineage().rows())
          .append("</td><td>")
          .append(Html.time(latest.committedAt()))
          .append("</td><td>")
          .append(Html.escape(SliceText.window(slice).substring("window: ".length())))
          .append("</td><td>")
          .append(Html.escape(SliceText.late(slice)))
          .append("</td></tr>\n");
    }
    html.append("</tbody>\n</table>\n</details>\n");
  }

  private static void inputs(ReportModel model, StringBuilder html) {
    ReportInputs inputs = model.inputs();
    html.append("<footer>\n<h2>Generated from</h2>\n<dl>\n<dt>table</dt><dd><code>")
        .append(Html.escape(model.table()))
        .append("</code></dd>\n<dt>as of</dt><dd>")
        .append(Html.escape(model.asOf().toString()))
        .append("</dd>\n<dt>metadata</dt><dd><code>")
        .append(Html.escape(inputs.metadataLocation()))
        .append("</code></dd>\n<dt>current snapshot</dt><dd><code>")
        .append(inputs.currentSnapshotId() == null ? "none" : inputs.currentSnapshotId())
        .append("</code></dd>\n<dt>sources</dt><dd>")
        .append(
            inputs.sourceSnapshots().isEmpty()
                ? "none"
                : Html.escape(SliceText.sources(inputs.sourceSnapshots())))
        .append("</dd>\n</dl>\n<p class=\"muted\">The page is a function of these inputs and")
        .append(" of the files under the table location (the orphan-file count lists them): the")
        .append(" same metadata, files and as-of instant give the same page.</p>\n</footer>\n");
  }
}
