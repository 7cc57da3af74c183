package dev.floe.catalog.snapshot;

import dev.floe.catalog.config.LostAnswerCheck;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import java.util.function.UnaryOperator;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.util.Tasks;

/**
 * Commits a change of a table's refs (a tag created, a branch removed), decided again on the
 * table's current metadata at every attempt, and tried again, with the table's own retry settings,
 * while other commits land in between. Iceberg's {@code manageSnapshots()} is not used for this:
 * when commits race, its retries fail with "Table metadata refresh is required" instead of trying
 * on the new metadata, so a tag made while a run committed failed (exit 1).
 */
final class RefCommit {

  private RefCommit() {}

  /**
   * @param table the table; it is refreshed before every attempt, so {@code change} may read it
   * @param subject what is being done, for the error when every attempt met another commit, e.g.
   *     {@code tag s.t as month-end}
   * @param change from the current metadata, the metadata to commit, or null when nothing is left
   *     to do on it (a racing command did it); it may throw to refuse
   * @return whether a change was committed
   * @throws CommitConflictException when other commits kept landing until the retries ran out
   */
  static boolean commit(Table table, String subject, UnaryOperator<TableMetadata> change) {
    TableOperations ops = ((HasTableOperations) table).operations();
    TableMetadata settings = ops.current();
    boolean[] committed = new boolean[1];
    // The last attempt that sent a commit: its base and the metadata it committed.
    TableMetadata[] sent = new TableMetadata[2];
    try {
      Tasks.foreach(ops)
          .retry(
              settings.propertyAsInt(
                  TableProperties.COMMIT_NUM_RETRIES, TableProperties.COMMIT_NUM_RETRIES_DEFAULT))
          .exponentialBackoff(
              settings.propertyAsInt(
                  TableProperties.COMMIT_MIN_RETRY_WAIT_MS,
                  TableProperties.COMMIT_MIN_RETRY_WAIT_MS_DEFAULT),
              settings.propertyAsInt(
                  TableProperties.COMMIT_MAX_RETRY_WAIT_MS,
                  TableProperties.COMMIT_MAX_RETRY_WAIT_MS_DEFAULT),
              settings.propertyAsInt(
                  TableProperties.COMMIT_TOTAL_RETRY_TIME_MS,
                  TableProperties.COMMIT_TOTAL_RETRY_TIME_MS_DEFAULT),
              2.0)
          .onlyRetryOn(CommitFailedException.class)
          .throwFailureWhenFinished()
          .run(
              taskOps -> {
                TableMetadata base = taskOps.refresh();
                TableMetadata updated = change.apply(base);
                committed[0] = updated != null;
                if (updated != null) {
                  sent[0] = base;
                  sent[1] = updated;
                  taskOps.commit(base, updated);
                }
              });
    } catch (org.apache.iceberg.exceptions.CommitStateUnknownException e) {
      throw new CommitStateUnknownException(
          String.format(
              "Cannot tell whether %s was committed: %s; see `floe tags` for the table's refs",
              subject, e.getMessage()),
          e);
    } catch (CommitFailedException e) {
      throw new CommitConflictException(
          String.format(
              "Cannot %s: other commits kept changing the table (%s); nothing was changed; run it"
                  + " again",
              subject, e.getMessage()),
          e);
    } catch (RuntimeException e) {
      if (sent[1] == null) {
        throw e;
      }
      // The commit was sent and no answer says how it went (a REST catalog's answer was lost):
      // the catalog itself tells.
      TableMetadata now;
      try {
        now = ops.refresh();
      } catch (RuntimeException unreadable) {
        e.addSuppressed(unreadable);
        throw new CommitStateUnknownException(
            String.format(
                "Cannot tell whether %s was committed: %s; see `floe tags` for the table's refs",
                subject, e.getMessage()),
            e);
      }
      if (!LostAnswerCheck.landed(sent[0], sent[1], now)) {
        throw e;
      }
    }
    return committed[0];
  }
}
