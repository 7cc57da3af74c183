package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.ManifestScans;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What a slice (or any {@link Scope}) holds right now, as a content hash. Walks back from the
 * current snapshot (never from a remembered one: a rollback moves the head) to the newest snapshot
 * that touched the slice. When that is a Floe commit for exactly this slice, its recorded hash is
 * the answer without reading data, provided the table's schema is still the one it was made with
 * ({@link CurrentCommit#madeWithCurrentSchema}); otherwise the slice is read and hashed ({@link
 * #compare}, which only asks whether the slice holds a given content, first tries the files' exact
 * row count). Either way the answer is the same: lineage and metadata only make it cheaper. A
 * compaction commit rewrites files but changes no row (it is refused otherwise), so the walk looks
 * through it to the commit that defined the content.
 */
public final class SliceContent {

  /**
   * @param hash the slice's content hash
   * @param definedBy the snapshot whose lineage gave the hash, or null when the slice was read or
   *     never written
   * @param method how the hash was found: {@code lineage}, {@code scan} or {@code empty}
   */
  public record Current(ContentHash hash, Long definedBy, String method) {}

  private SliceContent() {}

  public static Current current(Table table, Slice slice) {
    return current(table, Scope.of(slice));
  }

  /**
   * Whether the scope holds exactly {@code expected} (a run's no-op decision): {@link #current}'s
   * answer, except that where {@code current} would read the slice, the slice's files are planned
   * once and their metadata asked first. When the files give the slice's row count exactly ({@link
   * #wholeFiles}) and it differs from {@code expected}'s, the contents cannot be equal and nothing
   * is read (method {@code row count}); when it is equal, those planned files are read. The answer
   * is the one reading gives, provided the files' record counts are right (Iceberg's spec requires
   * them; a wrong count could only make a no-op rerun commit the same content again).
   *
   * @return whether the contents are equal, and how that was found: {@code lineage}, {@code empty},
   *     {@code row count} or {@code scan}
   */
  public static Comparison compare(Table table, Scope scope, ContentHash expected) {
    Current found = walk(table, scope);
    if (found != null) {
      return new Comparison(found.hash().equals(expected), found.method());
    }
    Optional<List<FileScanTask>> files = wholeFiles(table, scope);
    if (files.isEmpty()) {
      return new Comparison(scan(table, scope).hash().equals(expected), "scan");
    }
    if (rows(files.get()) != expected.rows()) {
      return new Comparison(false, "row count");
    }
    return new Comparison(TableContent.hashWholeFiles(table, files.get()).equals(expected), "scan");
  }

  /**
   * @param same whether the scope holds exactly the content compared with
   * @param method how that was found: {@code lineage}, {@code empty}, {@code row count} or {@code
   *     scan}
   */
  public record Comparison(boolean same, String method) {}

  public static Current current(Table table, Scope scope) {
    Current found = walk(table, scope);
    return found != null ? found : scan(table, scope);
  }

  /**
   * The scope's content as lineage tells it, or empty when no snapshot ever touched it; null when
   * the slice must be read (another writer touched it, or the history that did was expired).
   */
  private static Current walk(Table table, Scope scope) {
    SliceFootprint footprint = new SliceFootprint(table, scope);
    String label = scope.label();
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      Optional<Lineage> lineage = Lineage.of(snapshot);
      if (lineage.isPresent()
          && label.equals(lineage.get().slice())
          && WriteMode.replacesScope(lineage.get().mode())
          && lineage.get().contentHash() != null) {
        if (!CurrentCommit.madeWithCurrentSchema(table, snapshot.snapshotId())) {
          return null; // the rows read otherwise now than when the commit hashed them
        }
        return new Current(
            ContentHash.decode(lineage.get().contentHash()), snapshot.snapshotId(), "lineage");
      }
      boolean contentPreserved =
          lineage.isPresent() && WriteMode.preservesContent(lineage.get().mode());
      if (!contentPreserved && footprint.touchedBy(snapshot, lineage)) {
        return null;
      }
      if (snapshot.parentId() == null) {
        break;
      }
      Snapshot parent = table.snapshot(snapshot.parentId());
      if (parent == null) {
        // The older history was expired, but what it wrote may still be live: read the slice.
        return null;
      }
      snapshot = parent;
    }
    return new Current(ContentHash.empty(), null, "empty");
  }

  private static Current scan(Table table, Scope scope) {
    return new Current(TableContent.hash(table, scope.toExpression()), null, "scan");
  }

  /**
   * The files the scope selects at the current snapshot, when every one lies wholly inside the
   * scope (its residual filter is {@code true}) and no delete file applies to it: then the scope's
   * rows are exactly all their rows, and its row count is the sum of their record counts. Empty
   * otherwise (a file straddling the scope, position or equality deletes, deletion vectors): then
   * only a scan with the filter and the deletes applied tells.
   */
  static Optional<List<FileScanTask>> wholeFiles(Table table, Scope scope) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return Optional.of(List.of());
    }
    List<FileScanTask> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        ManifestScans.planOnCallingThreadIfLocal(
                table,
                table.newScan().useSnapshot(current.snapshotId()).filter(scope.toExpression()))
            .planFiles()) {
      for (FileScanTask task : tasks) {
        if (!task.deletes().isEmpty() || task.residual().op() != Expression.Operation.TRUE) {
          return Optional.empty();
        }
        files.add(task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot plan the files of " + scope.label() + " in " + table.name(), e);
    }
    return Optional.of(files);
  }

  /** The scope's row count from its files' metadata, when {@link #wholeFiles} makes it exact. */
  static OptionalLong exactRowCount(Table table, Scope scope) {
    return wholeFiles(table, scope)
        .map(files -> OptionalLong.of(rows(files)))
        .orElse(OptionalLong.empty());
  }

  private static long rows(List<FileScanTask> files) {
    return files.stream().mapToLong(task -> task.file().recordCount()).sum();
  }
}
