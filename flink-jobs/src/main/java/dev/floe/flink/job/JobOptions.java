package dev.floe.flink.job;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/** Options of `floe run` and of job manifests. */
public final class JobOptions {
  public static final FloeOption SLICE =
      FloeOption.of(
          "--slice",
          "string",
          null,
          "The slice to replace: a day `2026-10-03`, an hour `2026-10-03T05`, a month `2026-10` or"
              + " a year `2026`. It must cover whole partitions of the target. Required: a job"
              + " never derives its slice from the clock.");
  public static final FloeOption PARALLELISM =
      FloeOption.of(
          "parallelism",
          "int",
          "Flink's default",
          "Writer parallelism, in the manifest or as `--parallelism`; the flag wins.");
  public static final FloeOption FORCE_COMMIT =
      FloeOption.of(
          "--force-commit",
          "boolean",
          "false",
          "Commit a new snapshot even when the slice already holds exactly the new content"
              + " (otherwise such a rerun is reported as `no-op` and commits nothing).");
  public static final FloeOption MAX_CONFLICT_RETRIES =
      FloeOption.of(
          "--max-conflict-retries",
          "int",
          "3",
          "How often to re-commit after another run committed the same slice from older source"
              + " data. A run from the same or newer data is never overwritten.");
  public static final FloeOption ALLOW_NONDETERMINISTIC =
      FloeOption.of(
          "allow_nondeterministic",
          "boolean",
          "false",
          "Manifest key: allow wall-clock and random functions (CURRENT_DATE, NOW, RAND, UUID, ...)"
              + " in the query. Off by default, because such a query is not rerun-safe.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Jobs",
          "Options of `floe run` and keys of job manifests.",
          List.of(SLICE, PARALLELISM, FORCE_COMMIT, MAX_CONFLICT_RETRIES, ALLOW_NONDETERMINISTIC));

  private JobOptions() {}

  static int defaultMaxConflictRetries() {
    return Integer.parseInt(MAX_CONFLICT_RETRIES.defaultValue());
  }
}
