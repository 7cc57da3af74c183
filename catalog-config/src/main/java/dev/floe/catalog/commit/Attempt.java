package dev.floe.catalog.commit;

import java.util.List;
import org.apache.iceberg.ContentFile;

/**
 * One planned attempt of a {@link CommitAction}: a change to commit, or a result with nothing to
 * commit (a no-op, a dry run).
 *
 * @param commit commits the change (an Iceberg {@code PendingUpdate} or transaction); null when
 *     done
 * @param files the files written for this attempt only: live only if its commit lands
 * @param result the result when there is nothing to commit; null otherwise
 * @param <R> the operation's result
 */
public record Attempt<R>(Runnable commit, List<ContentFile<?>> files, R result) {

  public Attempt {
    files = List.copyOf(files);
  }

  /** Commit this change; no file was written for this attempt alone. */
  public static <R> Attempt<R> commit(Runnable commit) {
    return new Attempt<>(commit, List.of(), null);
  }

  /** Commit this change, which adds {@code files} written for this attempt. */
  public static <R> Attempt<R> commit(Runnable commit, List<? extends ContentFile<?>> files) {
    return new Attempt<>(commit, List.copyOf(files), null);
  }

  /** Nothing to commit: return {@code result}. The run's files are deleted. */
  public static <R> Attempt<R> done(R result) {
    return new Attempt<>(null, List.of(), result);
  }

  public boolean isDone() {
    return commit == null;
  }
}
