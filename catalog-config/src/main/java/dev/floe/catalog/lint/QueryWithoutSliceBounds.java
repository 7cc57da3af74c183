package dev.floe.catalog.lint;

import dev.floe.catalog.job.WriteMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A sliced job whose query does not use {@code :slice_start} and {@code :slice_end}: it reads more
 * than its slice, and every row outside the slice fails the run.
 */
final class QueryWithoutSliceBounds implements Check {
  static final Rule RULE =
      new Rule(
          "query-without-slice-bounds",
          Severity.ERROR,
          "A job with a slice whose query (outside comments and strings) lacks :slice_start or"
              + " :slice_end: it reads more than its slice, and a row outside the slice fails the"
              + " run.");

  private static final Pattern START = Pattern.compile(":slice_start\\b");
  private static final Pattern END = Pattern.compile(":slice_end\\b");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String query = manifest.query();
    String column = manifest.sliceColumn();
    if (!manifest.is(ManifestKind.JOB)
        || query == null
        || column == null
        || manifest.mode().equals(Optional.of(WriteMode.SWAP))) {
      return List.of();
    }
    String code = QueryText.of(query).code();
    List<String> missing = new ArrayList<>();
    if (!START.matcher(code).find()) {
      missing.add(":slice_start");
    }
    if (!END.matcher(code).find()) {
      missing.add(":slice_end");
    }
    if (missing.isEmpty()) {
      return List.of();
    }
    return List.of(
        RULE.at(
            manifest,
            "query",
            "Cannot keep the query inside its slice: it never uses %s, so it reads more than one"
                + " slice of %s; filter with %s >= :slice_start AND %s < :slice_end",
            String.join(" or ", missing),
            column,
            column,
            column));
  }
}
