package dev.floe.catalog.report;

import dev.floe.catalog.slice.SliceUnit;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The calendar heatmap: one cell per slice. Day slices sit in month calendars (weeks start on
 * Monday), hour slices in one row of 24 per day, month slices in one row of 12 per year, year
 * slices in one row. Only months, days or years that hold a slice are drawn.
 */
final class Heatmap {

  private Heatmap() {}

  /**
   * @param gap what a cell between loaded slices says of its slice: {@code not loaded}, or, with
   *     main's history cut by an expiry, that no load is in the kept history
   */
  static void render(List<SliceStatus> slices, String gap, StringBuilder html) {
    Map<String, List<SliceStatus>> groups = new LinkedHashMap<>();
    for (SliceStatus slice : slices) {
      String key = slice.slice().column() + " \u00b7 " + unitName(slice.slice().unit());
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(slice);
    }
    for (Map.Entry<String, List<SliceStatus>> group : groups.entrySet()) {
      List<SliceStatus> members = group.getValue();
      TreeMap<LocalDateTime, SliceStatus> byStart = new TreeMap<>();
      members.forEach(s -> byStart.put(s.slice().start(), s));
      html.append("<div class=\"group\"><h3>")
          .append(Html.escape(group.getKey()))
          .append(" <span class=\"muted\">(")
          .append(Html.count(members.size(), "slice"))
          .append(")</span></h3>\n");
      switch (members.get(0).slice().unit()) {
        case DAY -> days(byStart, gap, html);
        case HOUR -> hours(byStart, gap, html);
        case MONTH -> months(byStart, gap, html);
        case YEAR -> years(byStart, gap, html);
      }
      html.append("</div>\n");
    }
  }

  private static void days(
      TreeMap<LocalDateTime, SliceStatus> byStart, String gap, StringBuilder html) {
    LocalDateTime first = byStart.firstKey();
    LocalDateTime last = byStart.lastKey();
    TreeSet<YearMonth> months = new TreeSet<>();
    byStart.keySet().forEach(start -> months.add(YearMonth.from(start)));
    html.append("<div class=\"months\">\n");
    for (YearMonth month : months) {
      html.append("<div class=\"month\"><h4>")
          .append(month.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH))
          .append(' ')
          .append(month.getYear())
          .append("</h4><div class=\"week\">");
      for (DayOfWeek day : DayOfWeek.values()) {
        html.append("<span class=\"dow\">")
            .append(day.getDisplayName(TextStyle.SHORT, Locale.ENGLISH), 0, 2)
            .append("</span>");
      }
      for (int blank = 1; blank < month.atDay(1).getDayOfWeek().getValue(); blank++) {
        html.append("<span class=\"c blank\"></span>");
      }
      for (int d = 1; d <= month.lengthOfMonth(); d++) {
        LocalDateTime start = month.atDay(d).atStartOfDay();
        if (start.isBefore(first) || start.isAfter(last)) {
          // Before the first or after the last loaded day: not a gap, just the calendar.
          html.append("<span class=\"c out\">").append(d).append("</span>");
        } else {
          cell(byStart.get(start), String.valueOf(d), start.toLocalDate().toString(), gap, html);
        }
      }
      html.append("</div></div>\n");
    }
    html.append("</div>\n");
  }

  private static void hours(
      Map<LocalDateTime, SliceStatus> byStart, String gap, StringBuilder html) {
    TreeSet<LocalDate> days = new TreeSet<>();
    byStart.keySet().forEach(start -> days.add(start.toLocalDate()));
    html.append("<div class=\"rows\"><div class=\"row\"><span class=\"rowlabel\"></span>");
    for (int h = 0; h < 24; h++) {
      html.append("<span class=\"dow\">").append(String.format(Locale.ROOT, "%02d", h));
      html.append("</span>");
    }
    html.append("</div>\n");
    for (LocalDate day : days) {
      html.append("<div class=\"row\"><span class=\"rowlabel\">").append(day).append("</span>");
      for (int h = 0; h < 24; h++) {
        LocalDateTime start = day.atTime(h, 0);
        String hour = String.format(Locale.ROOT, "%02d", h);
        cell(byStart.get(start), hour, day + "T" + hour, gap, html);
      }
      html.append("</div>\n");
    }
    html.append("</div>\n");
  }

  private static void months(
      Map<LocalDateTime, SliceStatus> byStart, String gap, StringBuilder html) {
    TreeSet<Integer> years = new TreeSet<>();
    byStart.keySet().forEach(start -> years.add(start.getYear()));
    html.append("<div class=\"rows\">\n");
    for (int year : years) {
      html.append("<div class=\"row\"><span class=\"rowlabel\">").append(year).append("</span>");
      for (int m = 1; m <= 12; m++) {
        YearMonth month = YearMonth.of(year, m);
        String name = month.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
        cell(byStart.get(month.atDay(1).atStartOfDay()), name, month.toString(), gap, html);
      }
      html.append("</div>\n");
    }
    html.append("</div>\n");
  }

  private static void years(
      Map<LocalDateTime, SliceStatus> byStart, String gap, StringBuilder html) {
    html.append("<div class=\"rows\"><div class=\"row\">");
    for (Map.Entry<LocalDateTime, SliceStatus> entry : byStart.entrySet()) {
      String year = String.valueOf(entry.getKey().getYear());
      cell(entry.getValue(), year, year, gap, html);
    }
    html.append("</div></div>\n");
  }

  private static void cell(
      SliceStatus slice, String text, String value, String gap, StringBuilder html) {
    if (slice == null) {
      html.append("<span class=\"c none\" title=\"")
          .append(Html.escape(value))
          .append(": ")
          .append(Html.escape(gap))
          .append("\">")
          .append(Html.escape(text))
          .append("</span>");
      return;
    }
    html.append("<span class=\"c ").append(stateClass(slice.state()));
    if (slice.lateRowsUnknown()) {
      html.append(" unknown");
    } else if (slice.knownLateRows() > 0 && slice.state() != SliceState.LATE_DATA_PENDING) {
      html.append(" reported");
    }
    html.append("\" title=\"")
        .append(Html.multiline(SliceText.tooltip(slice)))
        .append("\">")
        .append(Html.escape(text))
        .append("</span>");
  }

  static String stateClass(SliceState state) {
    return switch (state) {
      case LOADED -> "s-loaded";
      case RELOADED -> "s-reloaded";
      case LATE_DATA_PENDING -> "s-late";
      case SEALED -> "s-sealed";
    };
  }

  private static String unitName(SliceUnit unit) {
    return unit.name().toLowerCase(Locale.ROOT) + " slices";
  }
}
