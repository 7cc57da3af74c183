package dev.floe.catalog.window;

import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Slice;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Whether the sources a load read still hold, for its slice, exactly what it read: the condition
 * under which a slice loaded before may be skipped rather than run again (a resumed backfill). For
 * every source its lineage records ({@code floe.source-snapshots}), either the source's current
 * snapshot is the one the load read, or every commit since is an append (or a {@code replace}, a
 * compaction that changes no row) and none of the appended rows falls into the slice, tested row by
 * row as {@link LateRows} counts late rows. Anything else is a change: an overwrite or delete, a
 * snapshot read that is no longer in the source's history (expired, rolled back), a source that
 * cannot be loaded, or one without a column of the slice's name to tell its rows. Appended rows
 * outside the slice count too unless the job's query provably reads each source only inside its
 * slice ({@code readsBeyondSlice} empty): a query over a wider window (the two days before the
 * slice, a running total) or a join reads rows the slice test cannot see. Not knowing counts as
 * changed, because the price of a wrong "unchanged" is a stale slice and the price of a wrong
 * "changed" is a rerun that commits nothing.
 *
 * <p>Sources are loaded once per instance. A source the query read while it had no snapshot (an
 * empty table) is not in the lineage, so rows added to it later are not seen here.
 */
public final class SourceChanges {
  private final Function<String, Table> sources;
  private final Map<String, Table> loaded = new HashMap<>();
  private final Map<String, String> missing = new HashMap<>();
  private final Supplier<Optional<String>> readsBeyondSlice;
  private Optional<String> beyond;

  /**
   * @param sources loads a source table by the name lineage records; may throw for a missing one
   * @param readsBeyondSlice why the job's query may read rows of a source outside the slice it
   *     loads, or empty when it provably reads each source only inside it (only then are appended
   *     rows outside the slice left out); asked at most once, and only when a source was appended
   *     to since a load
   */
  public SourceChanges(
      Function<String, Table> sources, Supplier<Optional<String>> readsBeyondSlice) {
    this.sources = sources;
    this.readsBeyondSlice = readsBeyondSlice;
  }

  /**
   * Why {@code slice}'s rows in the sources {@code lineage} records may differ from what that run
   * read, e.g. {@code sales.staging_orders changed since snapshot 12 the load read: overwrite
   * snapshot 34}; empty when they provably do not.
   */
  public Optional<String> since(Lineage lineage, Slice slice) {
    for (Map.Entry<String, Long> read : lineage.sourceSnapshots().entrySet()) {
      Optional<String> changed =
          changed(
              read.getKey(),
              read.getValue(),
              lineage.sourceSnapshotsUntil().get(read.getKey()),
              slice);
      if (changed.isPresent()) {
        return changed;
      }
    }
    return Optional.empty();
  }

  private Optional<String> changed(String name, long read, Long until, Slice slice) {
    Table source = source(name);
    if (source == null) {
      return Optional.of(missing.get(name));
    }
    Snapshot current = source.currentSnapshot();
    if (current == null) {
      return Optional.of(name + " has no current snapshot");
    }
    long now = current.snapshotId();
    if (now == read && until == null) {
      return Optional.empty();
    }
    String since = name + " changed since snapshot " + read + " the load read: ";
    if (!SnapshotUtil.isParentAncestorOf(source, now, read)
        || (until != null
            && until != now
            && !SnapshotUtil.isParentAncestorOf(source, now, until))) {
      return Optional.of(
          since
              + "what it read is no longer in its history (expired, or the table was rolled back)");
    }
    boolean appended = false;
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(now, read, source::snapshot)) {
      String operation = snapshot.operation();
      if (!DataOperations.APPEND.equals(operation) && !DataOperations.REPLACE.equals(operation)) {
        return Optional.of(since + operation + " snapshot " + snapshot.snapshotId());
      }
      appended |= DataOperations.APPEND.equals(operation);
    }
    if (!appended) {
      return Optional.empty(); // compactions only: the same rows in other files
    }
    if (beyond == null) {
      beyond = readsBeyondSlice.get();
    }
    if (beyond.isPresent()) {
      return Optional.of(
          since
              + "appends, and the job's query may read rows outside "
              + slice.label()
              + " ("
              + beyond.get()
              + ")");
    }
    Optional<Slice> onSource = slice.onSchema(source.schema());
    if (onSource.isEmpty()) {
      return Optional.of(
          since
              + "appends, and it has no date or timestamp column "
              + slice.column()
              + " to tell whether they hold rows of "
              + slice.label());
    }
    try {
      if (LateRows.countAppended(source, read, now, onSource.get(), 1) > 0) {
        return Optional.of(since + "rows of " + slice.label() + " were appended");
      }
    } catch (NotFoundException | UncheckedIOException e) {
      return Optional.of(since + "cannot read its appended files: " + e.getMessage());
    }
    return Optional.empty();
  }

  private Table source(String name) {
    if (!loaded.containsKey(name) && !missing.containsKey(name)) {
      try {
        loaded.put(name, sources.apply(name));
      } catch (FloeException | NoSuchTableException e) {
        missing.put(name, "cannot load source table " + name + ": " + e.getMessage());
      }
    }
    return loaded.get(name);
  }
}
