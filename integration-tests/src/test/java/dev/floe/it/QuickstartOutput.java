package dev.floe.it;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The output of `floe quickstart`, cut into its numbered steps ("7. floe sql -f ..."). */
record QuickstartOutput(List<String> steps) {
  private static final Pattern STEP_START = Pattern.compile("\\R(?=\\d+\\. )");
  private static final Pattern SNAPSHOT = Pattern.compile("snapshot (\\d+)");
  private static final Pattern CELL_SEPARATORS = Pattern.compile("\\s*\\|\\s*|\\s+");

  static QuickstartOutput of(String out) {
    return new QuickstartOutput(Arrays.asList(STEP_START.split(out)));
  }

  /** The steps that run {@code command}, in order, e.g. every run of one manifest. */
  List<String> running(String command) {
    return steps.stream()
        .filter(step -> step.matches("(?s)\\d+\\. " + Pattern.quote(command) + ".*"))
        .toList();
  }

  /**
   * A step's lines with the table layout removed, so a row reads as the seed prints it: {@code "10
   * | pro | 2026-10-03 12:00:00+00"} becomes {@code "10 pro 2026-10-03 12:00:00+00"}.
   */
  static List<String> lines(String step) {
    return step.lines().map(line -> CELL_SEPARATORS.matcher(line.strip()).replaceAll(" ")).toList();
  }

  /** The snapshot id a run step reports (the new one, or the current one for a no-op). */
  static String snapshot(String step) {
    Matcher matcher = SNAPSHOT.matcher(step);
    if (!matcher.find()) {
      throw new IllegalArgumentException("Cannot find a snapshot id in step: " + step);
    }
    return matcher.group(1);
  }
}
