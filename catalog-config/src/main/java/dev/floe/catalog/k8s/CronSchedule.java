package dev.floe.catalog.k8s;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a schedule is one Kubernetes' CronJob controller accepts: five fields (minute, hour, day
 * of month, month, day of week), each {@code *}, a number or a name in range, a range {@code a-b},
 * any of those with {@code /step}, or a comma list of them; or one of the {@code @} macros. Checked
 * before rendering, so a typo fails here with exit 2 instead of in the cluster.
 */
final class CronSchedule {
  private static final Set<String> MACROS =
      Set.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");
  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

  private record Field(int min, int max, List<String> names, int firstName) {}

  private static final List<Field> FIELDS =
      List.of(
          new Field(0, 59, List.of(), 0),
          new Field(0, 23, List.of(), 0),
          new Field(1, 31, List.of(), 0),
          new Field(1, 12, MONTHS, 1),
          new Field(0, 7, DAYS, 0));

  private CronSchedule() {}

  static boolean valid(String schedule) {
    if (schedule == null) {
      return false;
    }
    String text = schedule.trim();
    if (MACROS.contains(text.toLowerCase(Locale.ROOT))) {
      return true;
    }
    String[] parts = text.split("\\s+");
    if (parts.length != FIELDS.size()) {
      return false;
    }
    for (int i = 0; i < parts.length; i++) {
      for (String item : parts[i].split(",", -1)) {
        if (!validItem(item, FIELDS.get(i))) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean validItem(String item, Field field) {
    String range = item;
    int slash = item.indexOf('/');
    if (slash >= 0) {
      Integer step = number(item.substring(slash + 1));
      if (step == null || step < 1) {
        return false;
      }
      range = item.substring(0, slash);
    }
    if (range.equals("*")) {
      return true;
    }
    int dash = range.indexOf('-');
    if (dash < 0) {
      return value(range, field) != null;
    }
    Integer from = value(range.substring(0, dash), field);
    Integer to = value(range.substring(dash + 1), field);
    return from != null && to != null && from <= to;
  }

  private static Integer value(String text, Field field) {
    int named = field.names().indexOf(text.toUpperCase(Locale.ROOT));
    Integer value = named >= 0 ? Integer.valueOf(named + field.firstName()) : number(text);
    return value != null && value >= field.min() && value <= field.max() ? value : null;
  }

  private static Integer number(String text) {
    if (text.isEmpty() || text.length() > 2 || !text.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return Integer.parseInt(text);
  }
}
