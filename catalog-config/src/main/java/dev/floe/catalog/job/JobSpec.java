package dev.floe.catalog.job;

import java.io.Serializable;
import java.util.List;

/**
 * A parsed job manifest.
 *
 * @param job the job's name (part of the run key and lineage)
 * @param target the target table, {@code namespace.table}
 * @param mode how the result replaces the target's content
 * @param sliceColumn the target column the slice is cut on, or null when the run owns the whole
 *     table (swap, or merge/insert-if-absent without a slice)
 * @param query Flink SQL producing the slice's rows; may use {@code :slice_start}/{@code
 *     :slice_end}
 * @param key the key columns of merge and insert-if-absent; empty means the target's identifier
 *     fields
 * @param ordering the column whose greater value wins in a merge (and whose smaller value is kept
 *     among duplicates in insert-if-absent), or null
 * @param deleteMissing merge only: delete target rows of the slice whose key the source lacks
 * @param allowEmpty swap only: an empty result empties the table instead of failing
 * @param checks checks that gate the commit
 * @param allowNondeterministic true to allow wall-clock and random functions in the query
 * @param parallelism writer parallelism, or 0 for the default
 * @param effects webhooks sent once per run key after the run committed to main
 * @param timeout how long one run may take, or null for no limit
 * @param source the manifest's path, for messages
 * @param text the manifest's exact text (hashed into the run key)
 */
public record JobSpec(
    String job,
    String target,
    WriteMode mode,
    String sliceColumn,
    String query,
    List<String> key,
    String ordering,
    boolean deleteMissing,
    boolean allowEmpty,
    List<CheckSpec> checks,
    boolean allowNondeterministic,
    int parallelism,
    List<EffectSpec> effects,
    Timeout timeout,
    String source,
    String text)
    implements Serializable {

  /**
   * The most parallel tasks of one operator Flink runs (its {@code
   * KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM}, which flink-jobs holds this to): the
   * highest {@code parallelism} a manifest, {@code --parallelism} or a render may give.
   */
  public static final int MAX_PARALLELISM = 1 << 15;

  public JobSpec {
    key = List.copyOf(key);
    checks = List.copyOf(checks);
    effects = List.copyOf(effects);
  }

  /** A job without a timeout. */
  public JobSpec(
      String job,
      String target,
      WriteMode mode,
      String sliceColumn,
      String query,
      List<String> key,
      String ordering,
      boolean deleteMissing,
      boolean allowEmpty,
      List<CheckSpec> checks,
      boolean allowNondeterministic,
      int parallelism,
      List<EffectSpec> effects,
      String source,
      String text) {
    this(
        job,
        target,
        mode,
        sliceColumn,
        query,
        key,
        ordering,
        deleteMissing,
        allowEmpty,
        checks,
        allowNondeterministic,
        parallelism,
        effects,
        null,
        source,
        text);
  }

  /** A job without effects and without a timeout. */
  public JobSpec(
      String job,
      String target,
      WriteMode mode,
      String sliceColumn,
      String query,
      List<String> key,
      String ordering,
      boolean deleteMissing,
      boolean allowEmpty,
      List<CheckSpec> checks,
      boolean allowNondeterministic,
      int parallelism,
      String source,
      String text) {
    this(
        job,
        target,
        mode,
        sliceColumn,
        query,
        key,
        ordering,
        deleteMissing,
        allowEmpty,
        checks,
        allowNondeterministic,
        parallelism,
        List.of(),
        null,
        source,
        text);
  }

  public boolean hasSlice() {
    return sliceColumn != null;
  }
}
