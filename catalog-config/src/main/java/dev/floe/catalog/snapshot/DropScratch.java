package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.maintain.FileKind;
import dev.floe.catalog.maintain.ReferencedFiles;
import dev.floe.catalog.maintain.RereadOnMissingFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Drops a scratch branch ({@link ScratchBranch}) and everything it added: the branch, its snapshot
 * (a scratch run commits exactly one), and the files no remaining snapshot references. What is left
 * is the table as it was before the scratch run, apart from new metadata.json versions.
 *
 * <p>Not {@code table.expireSnapshots().expireSnapshotId(id)}: Iceberg's expiry also applies the
 * table's retention to every other ref in the same commit (it drops refs past their max-ref-age and
 * old ancestors of branches with their own retention), and a verify must change nothing but its own
 * branch. So the branch and its snapshot are removed in one metadata commit built the way expiry
 * builds its own, and the files to delete are those only that snapshot referenced ({@link
 * ReferencedFiles}), checked against the table's live file set after the commit.
 *
 * <p>{@link #apply()} says what would happen; {@link #commit()} does it.
 */
public final class DropScratch {
  private final Table table;
  private final String name;
  private String branch;

  private DropScratch(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static DropScratch of(Table table, String name) {
    return new DropScratch(table, name);
  }

  /** The scratch branch to drop, {@code scratch-<run-id>}. */
  public DropScratch branch(String value) {
    this.branch = value;
    return this;
  }

  /**
   * What would be removed and deleted; changes nothing.
   *
   * @throws InvalidInputException when the name is not a scratch branch or there is no such branch
   */
  public DropScratchPlan apply() {
    SnapshotRef ref = scratchRef(table.refs());
    boolean expires = !usedElsewhere(table.refs(), table::snapshot, ref.snapshotId());
    Map<String, FileKind> files =
        expires
            ? RereadOnMissingFiles.read(
                table, () -> onlyReferencedBy(table.snapshot(ref.snapshotId())), null)
            : Map.of();
    if (files == null) {
      throw new NotFoundException(
          "Cannot list the files of scratch branch %s of %s: other snapshots' files kept"
              + " disappearing while they were read",
          branch, name);
    }
    return new DropScratchPlan(name, branch, ref.snapshotId(), expires, files, List.of());
  }

  /**
   * Removes the branch and its snapshot in one metadata commit, then deletes the files no other
   * snapshot references. Another scratch branch dropped at the same time (a concurrent verify) may
   * delete its files while they are read here: the table is read again, and if its files keep
   * disappearing, this scratch run's files are left for orphan cleanup rather than the branch.
   */
  public DropScratchPlan commit() {
    SnapshotRef ref = scratchRef(table.refs());
    // Read before the commit: once the snapshot is gone from the metadata it cannot be listed.
    ReferencedFiles scratchFiles =
        ReferencedFiles.snapshots(table, List.of(table.snapshot(ref.snapshotId())));
    boolean expired = removeFromMetadata();
    if (!expired) {
      return new DropScratchPlan(name, branch, ref.snapshotId(), false, Map.of(), List.of());
    }
    Map<String, FileKind> only =
        RereadOnMissingFiles.read(
            table, () -> scratchFiles.minus(ReferencedFiles.all(table)), Map.of());
    List<String> deleted = new ArrayList<>();
    for (String location : only.keySet()) {
      table.io().deleteFile(location);
      deleted.add(location);
    }
    return new DropScratchPlan(name, branch, ref.snapshotId(), true, only, deleted);
  }

  /**
   * @return whether the snapshot was removed along with the branch
   */
  private boolean removeFromMetadata() {
    boolean[] expired = new boolean[1];
    RefCommit.commit(
        table,
        "drop scratch branch " + branch + " of " + name,
        base -> {
          // Decided again on every attempt: another writer may have branched off the scratch
          // snapshot meanwhile, and then only the ref goes.
          SnapshotRef ref = scratchRef(base.refs());
          expired[0] = !usedElsewhere(base.refs(), base::snapshot, ref.snapshotId());
          TableMetadata.Builder updated = TableMetadata.buildFrom(base).removeRef(branch);
          if (expired[0]) {
            updated.removeSnapshots(Set.of(ref.snapshotId()));
          }
          return updated.build();
        });
    return expired[0];
  }

  private SnapshotRef scratchRef(Map<String, SnapshotRef> refs) {
    InvalidInputException.check(
        branch != null && ScratchBranch.is(branch),
        "Cannot drop branch %s of %s: only scratch branches (%s<run-id>) are dropped this way",
        branch,
        name,
        ScratchBranch.PREFIX);
    SnapshotRef ref = refs.get(branch);
    if (ref == null || !ref.isBranch()) {
      throw InvalidInputException.of(
          "Cannot drop scratch branch %s of %s: there is no such branch (already dropped?"
              + " `floe tags %s` lists the branches)",
          branch, name, ShellWord.of(name));
    }
    return ref;
  }

  /** Whether another ref points at the snapshot or has it in its history. */
  private boolean usedElsewhere(
      Map<String, SnapshotRef> refs, Function<Long, Snapshot> lookup, long snapshotId) {
    return HeldSnapshots.ids(refs, lookup, branch).contains(snapshotId);
  }

  /** The files {@code scratch} references that no other snapshot of the table does. */
  private Map<String, FileKind> onlyReferencedBy(Snapshot scratch) {
    List<Snapshot> others = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.snapshotId() != scratch.snapshotId()) {
        others.add(snapshot);
      }
    }
    return ReferencedFiles.snapshots(table, List.of(scratch))
        .minus(ReferencedFiles.snapshots(table, others));
  }
}
