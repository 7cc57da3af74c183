package dev.floe.catalog.config;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JDBC or REST catalog table's operations with the check Iceberg's lack: when a commit fails, the
 * catalog is read again, and a commit whose change is there after all (it landed; only its answer
 * was lost) returns as committed instead of failing.
 *
 * <p>Why: Iceberg's JDBC connection pool runs a statement again on a new connection when the
 * connection drops (SQLState 08xxx). When the drop lost the answer to the commit's {@code UPDATE},
 * which had taken effect, the second run matches no row and Iceberg reports the commit failed. The
 * operation then retries on the refreshed table, fails its validation against its own snapshot and
 * deletes that snapshot's manifest list: the table's head is unreadable until rolled back. Here the
 * commit is found instead, and Floe's commit core records it once.
 *
 * <p>What tells a commit's change apart: the snapshots it adds (their ids are drawn at random for
 * this commit), else the branches and tags it sets or removes, in the metadata version this commit
 * wrote (its last-updated time in the table's metadata log). A commit that changes neither (a
 * schema or property change) cannot be told from another writer's, and fails as before. When the
 * catalog cannot be read after the failure, whether the commit landed is unknown ({@link
 * CommitStateUnknownException}, after which Iceberg deletes nothing); so is a REST commit whose
 * request got no answer and whose change is not there (yet): the catalog may still apply it.
 */
public final class LostAnswerCheck implements TableOperations {
  private static final Logger LOG = LoggerFactory.getLogger(LostAnswerCheck.class);

  private final TableOperations delegate;

  private LostAnswerCheck(TableOperations delegate) {
    this.delegate = delegate;
  }

  /** {@code table} committing through the check; other tables (metadata tables) as they are. */
  static Table wrap(Table table) {
    if (table.getClass() != BaseTable.class) {
      return table;
    }
    BaseTable base = (BaseTable) table;
    return new BaseTable(new LostAnswerCheck(base.operations()), base.name(), base.reporter());
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    try {
      delegate.commit(base, metadata);
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      // A REST commit whose request got no answer (a read timeout, a dropped connection) may
      // land yet: unknown, never failed, so Floe's commit core reports exit 5 naming the catalog
      // and the wait, Iceberg keeps its files, and no retry commits it twice.
      boolean unanswered = RestClientErrors.isUnanswered(e);
      if (base == null) {
        // a new table: the catalog says whether it exists
        throw unanswered ? unknown(e) : e;
      }
      TableMetadata now;
      try {
        now = delegate.refresh();
      } catch (RuntimeException unreadable) {
        e.addSuppressed(unreadable);
        throw unknown(e);
      }
      // A change of refs alone is this commit's only in the version it wrote (a racing process's
      // identical change failed this compare-and-set); a REST request without an answer is judged
      // by its refs, since the server writes the version.
      if (!landed(base, metadata, now)
          || !addsSnapshots(base, metadata) && !unanswered && !written(metadata, now)) {
        throw unanswered ? unknown(e) : e;
      }
      LOG.warn(
          "The commit to {} failed ({}), but the catalog holds its change: it committed, and its"
              + " answer was lost",
          metadata.location(),
          e.toString());
    }
  }

  /** Iceberg's commit-state-unknown for {@code failure}, its first line the REST reason if any. */
  private static CommitStateUnknownException unknown(RuntimeException failure) {
    return RestClientErrors.reason(failure)
        .map(reason -> new CommitStateUnknownException(new RuntimeException(reason, failure)))
        .orElseGet(() -> new CommitStateUnknownException(failure));
  }

  /**
   * Whether {@code now} holds what the commit of {@code metadata} over {@code base} changed: every
   * snapshot it added (only that commit can have added them, and a later commit may have moved the
   * branch on since), or, when it added none, every branch or tag it set or removed, as it left
   * them; false when it changed neither.
   */
  public static boolean landed(TableMetadata base, TableMetadata metadata, TableMetadata now) {
    Set<Long> before = new HashSet<>();
    base.snapshots().forEach(s -> before.add(s.snapshotId()));
    boolean added = false;
    for (Snapshot snapshot : metadata.snapshots()) {
      if (!before.contains(snapshot.snapshotId())) {
        added = true;
        if (now.snapshot(snapshot.snapshotId()) == null) {
          return false;
        }
      }
    }
    if (added) {
      return true;
    }
    Set<String> refs = new HashSet<>(base.refs().keySet());
    refs.addAll(metadata.refs().keySet());
    boolean moved = false;
    for (String name : refs) {
      SnapshotRef set = metadata.ref(name);
      if (!Objects.equals(base.ref(name), set)) {
        moved = true;
        if (!Objects.equals(now.ref(name), set)) {
          return false;
        }
      }
    }
    return moved;
  }

  private static boolean addsSnapshots(TableMetadata base, TableMetadata metadata) {
    return metadata.snapshots().size() > base.snapshots().size()
        || metadata.snapshots().stream().anyMatch(s -> base.snapshot(s.snapshotId()) == null);
  }

  /**
   * Whether the metadata {@code metadata} became is {@code now} or one of its earlier versions,
   * told by its last-updated time, which the file this commit wrote carries: a change of refs alone
   * cannot be told from another process's identical one (two racing untags of one tag) by the refs,
   * and the loser of such a race reported it had removed the tag, with a warning that its answer
   * was lost. Two commits in one millisecond still cannot be told apart.
   */
  private static boolean written(TableMetadata metadata, TableMetadata now) {
    long updated = metadata.lastUpdatedMillis();
    return now.lastUpdatedMillis() == updated
        || now.previousFiles().stream().anyMatch(entry -> entry.timestampMillis() == updated);
  }

  @Override
  public TableMetadata current() {
    return delegate.current();
  }

  @Override
  public TableMetadata refresh() {
    return delegate.refresh();
  }

  @Override
  public FileIO io() {
    return delegate.io();
  }

  @Override
  public EncryptionManager encryption() {
    return delegate.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return delegate.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return delegate.locationProvider();
  }

  @Override
  public TableOperations temp(TableMetadata uncommittedMetadata) {
    return delegate.temp(uncommittedMetadata);
  }

  @Override
  public long newSnapshotId() {
    return delegate.newSnapshotId();
  }

  @Override
  public boolean requireStrictCleanup() {
    return delegate.requireStrictCleanup();
  }
}
