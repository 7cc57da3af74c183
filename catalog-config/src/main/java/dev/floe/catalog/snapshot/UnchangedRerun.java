package dev.floe.catalog.snapshot;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Finds, before a run starts its job, that the run can only end as a no-op (DESIGN rule 5): the
 * commit that holds its scope's content on main was made by a run with the same intent (run key:
 * job, target, slice, manifest text, code version) from the same source snapshots, into the same
 * table schema, and replaced its whole scope. A deterministic query over the same pinned snapshots
 * gives the same rows, so the full run would hash them equal to that commit's content and commit
 * nothing; skipping the job ends the table the same, only sooner.
 *
 * <p>The caller decides whether the run qualifies at all: its query must be free of calls whose
 * result depends on when it runs, every table it reads must be pinned to a snapshot, and a forced
 * commit never skips.
 */
public final class UnchangedRerun {

  private UnchangedRerun() {}

  /**
   * @param table the target, as loaded when the run was planned
   * @param scope the run's scope
   * @param runKey the run's key
   * @param sources the snapshot of every table the run's query reads, pinned
   * @param loadSource loads a source table by the name {@code sources} gives it
   * @return the commit whose content the run would reproduce, or empty when the job must run
   */
  public static Optional<CurrentCommit.Found> find(
      Table table,
      Scope scope,
      String runKey,
      Map<String, Long> sources,
      Function<String, Table> loadSource) {
    return candidate(table, scope, runKey)
        .filter(found -> readSameSources(found, sources, loadSource));
  }

  /**
   * The half of {@link #find} that needs no query plan: the commit holding the scope was made by a
   * run with this key, into the table's current schema, and replaced its whole scope. Empty means
   * the job must run whatever its query reads, so a caller can start what the job needs (its
   * cluster) before planning the query; present means the job may still be skipped, once {@link
   * #readSameSources} confirms it.
   */
  public static Optional<CurrentCommit.Found> candidate(Table table, Scope scope, String runKey) {
    return CurrentCommit.of(table, scope)
        .filter(found -> sameIntent(found.lineage(), runKey))
        .filter(found -> CurrentCommit.madeWithCurrentSchema(table, found.snapshotId()));
  }

  /**
   * The other half of {@link #find}: the {@link #candidate} was made from the same source snapshots
   * as the run's query pins now, and no source changed since.
   */
  public static boolean readSameSources(
      CurrentCommit.Found candidate,
      Map<String, Long> sources,
      Function<String, Table> loadSource) {
    return candidate.lineage().sourceSnapshots().equals(sources)
        && sources.entrySet().stream().allMatch(s -> untouchedSince(loadSource, s));
  }

  /**
   * The source's current metadata is the one that made its pinned snapshot current: nothing changed
   * the table since, not even without a snapshot. A renamed or dropped column, or a new name
   * mapping, changes the rows a reader gets from the same snapshot, and lineage does not record the
   * schema a run read with; so any later change to the source (also a tag, a property or an expiry)
   * makes the job run, and so does a current schema other than the one the snapshot was committed
   * with. Reads the previous metadata file; when it cannot, the job runs.
   */
  private static boolean untouchedSince(
      Function<String, Table> loadSource, Map.Entry<String, Long> source) {
    try {
      Table table = loadSource.apply(source.getKey());
      Snapshot current = table.currentSnapshot();
      if (current == null
          || current.snapshotId() != source.getValue()
          || !(table instanceof HasTableOperations operations)) {
        return false;
      }
      if (current.schemaId() == null || current.schemaId() != table.schema().schemaId()) {
        // The schema changed since the snapshot was committed: a rollback to it after a schema
        // change makes it current again, and the last metadata change then looks like any other.
        return false;
      }
      List<TableMetadata.MetadataLogEntry> log = operations.operations().current().previousFiles();
      if (log.isEmpty()) {
        // Created with this snapshot, or a metadata log kept to no entries: nothing tells which.
        return false;
      }
      TableMetadata before = TableMetadataParser.read(table.io(), log.get(log.size() - 1).file());
      return before.currentSnapshot() == null
          || before.currentSnapshot().snapshotId() != current.snapshotId();
    } catch (RuntimeException e) {
      return false; // an optimisation only: whatever could not be read, the job runs
    }
  }

  private static boolean sameIntent(Lineage lineage, String runKey) {
    return runKey.equals(lineage.runKey())
        && WriteMode.replacesScope(lineage.mode())
        && lineage.contentHash() != null
        // Floe before pinned sources recorded only a lower bound of what a run read.
        && lineage.sourceSnapshotsUntil().isEmpty();
  }
}
