package dev.floe.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counts a merge reports in its outcome detail, e.g. {@code committed: 1000 source rows, 1000
 * keys: 500 inserted, 500 updated, 0 unchanged (target as new or newer), 0 deleted; read 5 and
 * rewrote 5 of 100 files in scope}. Read from the text because that is what a user sees; a change
 * of wording fails the benchmark loudly instead of printing zeros.
 */
record MergeDetail(
    long received,
    long keys,
    long inserted,
    long updated,
    long unchanged,
    long deleted,
    int filesRead,
    int filesRewritten,
    int filesInScope) {

  private static final Pattern COUNTS =
      Pattern.compile(
          "(\\d+) source rows, (\\d+) keys: (\\d+) inserted, (\\d+) updated, (\\d+) unchanged"
              + "[^,;]*, (\\d+) deleted; read (\\d+) and rewrote (\\d+) of (\\d+) files in scope");

  static MergeDetail parse(String detail) {
    Matcher m = detail == null ? null : COUNTS.matcher(detail);
    if (m == null || !m.find()) {
      throw new IllegalStateException("Cannot read the merge counts from '" + detail + "'");
    }
    return new MergeDetail(
        Long.parseLong(m.group(1)),
        Long.parseLong(m.group(2)),
        Long.parseLong(m.group(3)),
        Long.parseLong(m.group(4)),
        Long.parseLong(m.group(5)),
        Long.parseLong(m.group(6)),
        Integer.parseInt(m.group(7)),
        Integer.parseInt(m.group(8)),
        Integer.parseInt(m.group(9)));
  }
}
