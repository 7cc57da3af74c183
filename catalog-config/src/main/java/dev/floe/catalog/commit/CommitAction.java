package dev.floe.catalog.commit;

import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * What one committing operation contributes to {@link RunCommit}: it builds its change on the
 * refreshed table and decides its no-op; the core does everything else (locking, looking the run
 * up, fault injection, classifying failures, deleting only files that cannot be live).
 *
 * @param <R> what the operation returns
 */
public interface CommitAction<R> {

  /** What the commit changes, for messages: e.g. "slice order_date=[…) of sales.fact_orders". */
  String subject();

  /** The table's name as the user knows it (for "check `floe snapshots T`"). */
  String target();

  /**
   * The run id this commit records as {@code floe.run-id}: how the commit is found in the history
   * when its answer was lost, and how a re-executed committer sees that it already committed. Null
   * for an operation that makes no snapshot of its own (it overrides {@link #findCommitted}).
   */
  String runId();

  /** The branch the commit goes to; null for main. */
  default String branch() {
    return null;
  }

  /**
   * The snapshot showing that this operation's commit landed, or empty. By default the snapshot
   * {@link #runId()} committed on {@link #branch()}; operations that make no snapshot of their own
   * (a rollback) say what shows theirs.
   */
  default Optional<Snapshot> findCommitted(Table table) {
    return RunLookup.find(table, runId(), branch());
  }

  /**
   * Plans one attempt on the freshly refreshed table.
   *
   * @param attempt 1 for the first attempt, then 2, 3, … after conflicts that allow a retry
   * @return the change to commit, or a finished result when there is nothing to commit
   * @throws RuntimeException to stop; nothing was committed, and the run's files are deleted
   */
  Attempt<R> prepare(Table table, int attempt);

  /**
   * Iceberg refused the commit with a validation failure: another commit touched what this one
   * changes after it was planned. Nothing was committed.
   *
   * @param table the table, refreshed
   * @return empty to retry ({@link #prepare} is called again on the new head), or the result to
   *     return without committing (e.g. the other commit already holds this content)
   * @throws RuntimeException to stop, e.g. {@link dev.floe.catalog.error.CommitConflictException}
   */
  Optional<R> onConflict(Table table, ValidationException conflict, int attempt);

  /**
   * The result once the commit is in the history.
   *
   * @param snapshot what {@link #findCommitted} found
   * @param attempt the attempt that committed; 0 when an earlier execution of the same run did
   */
  R committed(Table table, Snapshot snapshot, int attempt);
}
