package dev.floe.catalog.commit;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.ShellWord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one routine through which every Floe operation commits (DESIGN.md rule 11): overwrite, merge,
 * insert-if-absent, swap, late apply and backfill slices, compaction, revert, publish and rollback.
 * The operation ({@link CommitAction}) builds its change and decides its no-op; this class owns the
 * safety rules:
 *
 * <ol>
 *   <li>Commits to one table from one JVM are serialized ({@link TableCommitLock}).
 *   <li>Before anything, the run is looked up in the history: a re-executed committer whose first
 *       execution committed reports that commit and deletes nothing.
 *   <li>Each attempt is planned on the refreshed table, then committed with the validations the
 *       operation set (Iceberg retries its own metadata races, {@link CommitFailedException}).
 *   <li>After any failure of the commit call, the run is looked up again: if its commit is in the
 *       history (the answer was lost), the run is committed and nothing is committed twice.
 *   <li>Otherwise the failure is classified. A {@link ValidationException} (another commit touched
 *       what this one changes) goes to the operation's conflict rule, which retries on the new
 *       head, returns, or stops; a {@link CleanableFailure} (such as {@link CommitFailedException})
 *       means certainly not committed: exit 4 or the failure itself; anything else — {@code
 *       CommitStateUnknownException}, a dropped connection — may have committed: exit 5, and the
 *       files are kept.
 *   <li>Files are deleted only when they cannot be live: every failure before the commit call, and
 *       every failure the history proves did not commit.
 * </ol>
 *
 * Like Iceberg's pending updates it is configured fluently, then {@link #commit()} runs it.
 *
 * @param <R> what the operation returns
 */
public final class RunCommit<R> {
  private static final Logger LOG = LoggerFactory.getLogger(RunCommit.class);

  private final Table table;
  private final CommitAction<R> action;
  private List<ContentFile<?>> runFiles = List.of();
  private FailurePoint failAt = FailurePoint.NONE;
  private int maxAttempts = 1;

  private RunCommit(Table table, CommitAction<R> action) {
    this.table = table;
    this.action = action;
  }

  public static <R> RunCommit<R> of(Table table, CommitAction<R> action) {
    return new RunCommit<>(table, action);
  }

  /**
   * The files the run wrote before the commit (by its writers), reused by every attempt: live only
   * if a commit lands; deleted when none can have.
   */
  public RunCommit<R> files(List<? extends ContentFile<?>> files) {
    this.runFiles = List.copyOf(files);
    return this;
  }

  /**
   * A failure to inject: {@link FailurePoint#BEFORE_COMMIT}, LOST_REQUEST, LOST_RESPONSE or
   * AFTER_COMMIT.
   */
  public RunCommit<R> failAt(FailurePoint point) {
    this.failAt = point == null ? FailurePoint.NONE : point;
    return this;
  }

  /** How many attempts conflicts that allow a retry may take (at least 1). */
  public RunCommit<R> maxAttempts(int attempts) {
    this.maxAttempts = Math.max(1, attempts);
    return this;
  }

  /**
   * Runs the commit.
   *
   * @throws CommitConflictException when the catalog kept rejecting the commit, or conflicts
   *     outlasted the attempts (nothing committed)
   * @throws CommitStateUnknownException when the catalog may have committed but the run is not in
   *     the history (files kept)
   * @throws RuntimeException what the operation threw to stop (nothing committed)
   */
  public R commit() {
    return TableCommitLock.commitSerially(table.name(), this::commitHoldingTheLock);
  }

  private R commitHoldingTheLock() {
    List<ContentFile<?>> attemptFiles = List.of();
    // Until the history has answered "not committed", the run's files may be live: an earlier
    // execution of this very run may have committed them.
    boolean mayBeLive = true;
    try {
      table.refresh();
      Optional<Snapshot> earlier = action.findCommitted(table);
      if (earlier.isPresent()) {
        return action.committed(table, earlier.get(), 0);
      }
      mayBeLive = false;
      for (int attempt = 1; attempt <= maxAttempts; attempt++) {
        if (attempt > 1) {
          table.refresh();
        }
        Attempt<R> planned = action.prepare(table, attempt);
        attemptFiles = planned.files();
        if (planned.isDone()) {
          delete(all(attemptFiles));
          return planned.result();
        }
        failAt.failIf(FailurePoint.BEFORE_COMMIT, "before the commit of " + action.subject());
        RuntimeException failure = null;
        try {
          mayBeLive = true;
          failAt.failIf(
              FailurePoint.LOST_REQUEST,
              "(the commit of " + action.subject() + " never reached the catalog)");
          planned.commit().run();
          failAt.failIf(
              FailurePoint.LOST_RESPONSE,
              "(the catalog committed " + action.subject() + "; its answer was lost)");
        } catch (RuntimeException e) {
          failure = e;
        }
        Lookup lookup = lookUp(failure);
        if (lookup.failed() != null) {
          // The history could not be read after a failure: whether it committed is unknown,
          // whatever the failure said.
          throw unknown(failure, lookup.failed());
        }
        Optional<Snapshot> landed = lookup.snapshot();
        if (landed.isPresent() && failure != null) {
          requireReadable(landed.get(), failure);
        }
        if (landed.isPresent()) {
          R result = action.committed(table, landed.get(), attempt);
          failAt.failIf(FailurePoint.AFTER_COMMIT, "after the commit of " + action.subject());
          return result;
        }
        if (failure == null) {
          throw new IllegalStateException(
              String.format(
                  "Cannot find the commit of %s: run %s is not in the history right after its"
                      + " commit succeeded",
                  action.subject(), action.runId()));
        }
        if (failure instanceof ValidationException conflict) {
          mayBeLive = false;
          delete(attemptFiles);
          attemptFiles = List.of();
          LOG.info("The commit of {} conflicted: {}", action.subject(), conflict.getMessage());
          Optional<R> resolved = action.onConflict(table, conflict, attempt);
          if (resolved.isPresent()) {
            delete(runFiles);
            return resolved.get();
          }
          continue;
        }
        if (failure instanceof CleanableFailure) {
          mayBeLive = false;
          if (failure instanceof CommitFailedException) {
            throw new CommitConflictException(
                String.format(
                    "Cannot commit %s: the catalog kept rejecting the commit (%s); nothing was"
                        + " committed",
                    action.subject(), failure.getMessage()),
                failure);
          }
          throw failure;
        }
        throw unknown(failure, null);
      }
      throw new CommitConflictException(
          String.format(
              "Cannot commit %s: still conflicting after %d attempts; nothing was committed",
              action.subject(), maxAttempts));
    } catch (RuntimeException e) {
      if (!mayBeLive) {
        delete(all(attemptFiles));
      }
      throw e;
    }
  }

  /**
   * What the history said after the commit call.
   *
   * @param snapshot the run's commit, or empty when the history does not hold it
   * @param failed why the history could not be read; then {@code snapshot} says nothing
   */
  private record Lookup(Optional<Snapshot> snapshot, RuntimeException failed) {}

  /** Looks the run up after the commit call; a failed lookup is recorded on {@code failure}. */
  private Lookup lookUp(RuntimeException failure) {
    try {
      table.refresh();
      return new Lookup(action.findCommitted(table), null);
    } catch (RuntimeException lookupFailed) {
      if (failure != null) {
        failure.addSuppressed(lookupFailed);
      }
      return new Lookup(Optional.empty(), lookupFailed);
    }
  }

  /**
   * Exit 5: the commit may have landed, and the history does not say; the files are kept.
   *
   * @param failure what the commit call threw, or null when it returned
   * @param lookupFailed why the history could not be read afterwards, or null when it was read
   */
  private CommitStateUnknownException unknown(
      RuntimeException failure, RuntimeException lookupFailed) {
    RuntimeException cause = failure != null ? failure : lookupFailed;
    String what =
        failure == null
            ? "the commit call returned, but the history could not be read ("
                + firstLine(lookupFailed)
                + ")"
            : "the catalog's answer was lost (" + firstLine(failure) + ")";
    return new CommitStateUnknownException(
        String.format(
            "Cannot tell whether %s was committed: %s and %s is not in the history yet; the files"
                + " were kept; check `floe snapshots %s` before rerunning",
            action.subject(),
            what,
            action.runId() == null ? "the commit" : "run " + action.runId(),
            ShellWord.of(action.target())),
        cause);
  }

  /**
   * A commit found in the history after a failure must also be readable: when Iceberg's client
   * resent a commit the catalog had applied (a 503 with Retry-After), it treats the resend's
   * conflict as a failure and deletes the manifests of the snapshot that did land
   * (apache/iceberg#5752). Reporting that commit as done would leave an unreadable head.
   */
  private void requireReadable(Snapshot snapshot, RuntimeException failure) {
    List<String> missing = new ArrayList<>();
    try {
      if (snapshot.manifestListLocation() != null
          && !table.io().newInputFile(snapshot.manifestListLocation()).exists()) {
        missing.add(snapshot.manifestListLocation());
      } else {
        snapshot.allManifests(table.io()).stream()
            .map(m -> m.path())
            .filter(path -> !table.io().newInputFile(path).exists())
            .forEach(missing::add);
      }
    } catch (RuntimeException unreadable) {
      failure.addSuppressed(unreadable);
      missing.add(String.valueOf(snapshot.manifestListLocation()));
    }
    if (!missing.isEmpty()) {
      String repair =
          snapshot.parentId() == null
              ? "it is the table's first snapshot: drop and recreate the table, then rerun"
              : String.format(
                  "roll back to snapshot %d (`floe rollback %s --to-snapshot %d`), then rerun",
                  snapshot.parentId(), ShellWord.of(action.target()), snapshot.parentId());
      throw new CommitStateUnknownException(
          String.format(
              "Cannot confirm %s: its snapshot %d is in the history, but Iceberg deleted its"
                  + " metadata file %s after the catalog's answer was lost, so the table cannot"
                  + " be read at that snapshot; %s",
              action.subject(), snapshot.snapshotId(), missing.get(0), repair),
          failure);
    }
  }

  private List<ContentFile<?>> all(List<ContentFile<?>> attemptFiles) {
    List<ContentFile<?>> all = new ArrayList<>(runFiles);
    all.addAll(attemptFiles);
    return all;
  }

  /** Deletes files no snapshot references; a failure is logged, never thrown. */
  private void delete(List<ContentFile<?>> files) {
    UncommittedFiles.delete(table, files);
  }

  private static String firstLine(Throwable e) {
    // "Error occurred while processing POST request" names neither the catalog nor the wait.
    Optional<String> rest = dev.floe.catalog.config.RestClientErrors.reason(e);
    if (rest.isPresent()) {
      return rest.get();
    }
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
