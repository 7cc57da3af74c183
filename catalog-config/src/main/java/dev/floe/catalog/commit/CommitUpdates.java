package dev.floe.catalog.commit;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.BaseOverwriteFiles;
import org.apache.iceberg.BaseRowDelta;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RollingManifestWriter;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * The snapshot updates of Floe's commits that add files: an overwrite and a row delta whose
 * manifest of new files is written on the committing thread, and whose manifest reads follow {@link
 * ManifestScans}.
 *
 * <p>Iceberg 1.11 writes the manifest of a commit's new files on its static worker pool and waits
 * for it by polling every 10 ms ({@code SnapshotProducer.writeManifests}, {@code Tasks.waitFor});
 * nothing a caller sets changes that pool. Below 15,000 files Iceberg puts them all in one manifest
 * group, so one pool thread writes the same manifest the committing thread would, while the
 * committing thread sleeps. A wall-clock profile of a backfill's commits put that sleep at a third
 * of each commit (docs/benchmarks.md, 2026-12-05). Up to {@link #MAX_FILES_ON_COMMITTING_THREAD}
 * new files, these updates write that manifest on the committing thread: the same writer, rolled at
 * the same size, in the same order. More files keep Iceberg's parallel writers. (Iceberg's later
 * {@code SnapshotUpdate} takes an executor for this; this class goes when Floe moves to it.)
 *
 * <p>A table that is not a plain {@link BaseTable} (a transaction's table, a serialized copy) gets
 * Iceberg's own update.
 */
public final class CommitUpdates {
  /**
   * The most new files whose manifest a commit writes on its own thread: Iceberg's smallest group
   * of files per manifest writer, so that these are always files Iceberg writes with one thread.
   */
  static final int MAX_FILES_ON_COMMITTING_THREAD = 10_000;

  private CommitUpdates() {}

  /** An overwrite of {@code table}; see the class comment for where its manifest work runs. */
  public static OverwriteFiles newOverwrite(Table table) {
    return newOverwrite(table, MAX_FILES_ON_COMMITTING_THREAD);
  }

  static OverwriteFiles newOverwrite(Table table, int maxFilesOnCommittingThread) {
    OverwriteFiles overwrite =
        table instanceof BaseTable base
            ? new Overwrite(base, maxFilesOnCommittingThread, null)
            : table.newOverwrite();
    return ManifestScans.onCommittingThreadIfLocal(table, overwrite);
  }

  /** A row delta of {@code table}; see the class comment for where its manifest work runs. */
  public static RowDelta newRowDelta(Table table) {
    return newRowDelta(table, MAX_FILES_ON_COMMITTING_THREAD);
  }

  static RowDelta newRowDelta(Table table, int maxFilesOnCommittingThread) {
    return newRowDelta(table, maxFilesOnCommittingThread, null);
  }

  private static RowDelta newRowDelta(
      Table table, int maxFilesOnCommittingThread, Long restoresFrom) {
    RowDelta delta =
        table instanceof BaseTable base
            ? new Delta(base, maxFilesOnCommittingThread, restoresFrom)
            : table.newRowDelta();
    return ManifestScans.onCommittingThreadIfLocal(table, delta);
  }

  /**
   * An overwrite that adds files back from snapshot {@code source} (a revert): every attempt of its
   * commit checks that the table it commits onto still holds that snapshot, and fails with {@link
   * SourceExpiredException} when it does not. An expiry removes a snapshot from the metadata before
   * it deletes the files only that snapshot referenced, so an added-back file is then possibly
   * gone; committing it would leave a table no reader can scan. This holds where the catalog swaps
   * the whole metadata (JDBC, Glue, Hive); a REST catalog checks only the requirements the client
   * sends (main's head, which an expiry does not move), so the caller also checks its files after
   * the commit (see {@code Revert}).
   */
  public static OverwriteFiles newOverwriteRestoring(Table table, long source) {
    requireBaseTable(table);
    return ManifestScans.onCommittingThreadIfLocal(
        table, new Overwrite((BaseTable) table, MAX_FILES_ON_COMMITTING_THREAD, source));
  }

  /** The row delta of {@link #newOverwriteRestoring}. */
  public static RowDelta newRowDeltaRestoring(Table table, long source) {
    requireBaseTable(table);
    return newRowDelta(table, MAX_FILES_ON_COMMITTING_THREAD, source);
  }

  private static void requireBaseTable(Table table) {
    if (!(table instanceof BaseTable)) {
      throw new IllegalArgumentException(
          "Cannot check the source snapshot of a commit on " + table.getClass().getName());
    }
  }

  /** The snapshot a commit adds files back from was expired from the table it commits onto. */
  public static final class SourceExpiredException extends ValidationException {
    private final long snapshotId;

    SourceExpiredException(long snapshotId) {
      super(
          "snapshot %d, whose files it adds back, was expired meanwhile (its files may be deleted)",
          snapshotId);
      this.snapshotId = snapshotId;
    }

    public long snapshotId() {
      return snapshotId;
    }
  }

  private static void requireSource(TableMetadata base, Long restoresFrom) {
    if (restoresFrom != null && base.snapshot(restoresFrom) == null) {
      throw new SourceExpiredException(restoresFrom);
    }
  }

  private static final class Overwrite extends BaseOverwriteFiles {
    private final int maxFilesOnCommittingThread;
    private final Long restoresFrom;

    Overwrite(BaseTable table, int maxFilesOnCommittingThread, Long restoresFrom) {
      super(table.name(), table.operations());
      this.maxFilesOnCommittingThread = maxFilesOnCommittingThread;
      this.restoresFrom = restoresFrom;
      reportWith(table.reporter());
    }

    @Override
    protected void validate(TableMetadata base, Snapshot parent) {
      super.validate(base, parent);
      requireSource(base, restoresFrom);
    }

    @Override
    protected List<ManifestFile> writeDataManifests(
        Collection<DataFile> files, Long dataSeq, PartitionSpec spec) {
      return files.size() > maxFilesOnCommittingThread
          ? super.writeDataManifests(files, dataSeq, spec)
          : write(newRollingManifestWriter(spec), files, file -> dataSeq);
    }
  }

  private static final class Delta extends BaseRowDelta {
    private final int maxFilesOnCommittingThread;
    private final Long restoresFrom;

    Delta(BaseTable table, int maxFilesOnCommittingThread, Long restoresFrom) {
      super(table.name(), table.operations());
      this.maxFilesOnCommittingThread = maxFilesOnCommittingThread;
      this.restoresFrom = restoresFrom;
      reportWith(table.reporter());
    }

    @Override
    protected void validate(TableMetadata base, Snapshot parent) {
      super.validate(base, parent);
      requireSource(base, restoresFrom);
    }

    @Override
    protected List<ManifestFile> writeDataManifests(
        Collection<DataFile> files, Long dataSeq, PartitionSpec spec) {
      return files.size() > maxFilesOnCommittingThread
          ? super.writeDataManifests(files, dataSeq, spec)
          : write(newRollingManifestWriter(spec), files, file -> dataSeq);
    }

    @Override
    protected List<ManifestFile> writeDeleteManifests(
        Collection<DeleteFile> files, PartitionSpec spec) {
      return files.size() > maxFilesOnCommittingThread
          ? super.writeDeleteManifests(files, spec)
          : write(newRollingDeleteManifestWriter(spec), files, DeleteFile::dataSequenceNumber);
    }
  }

  /**
   * Writes {@code files} in order, each with its data sequence number when it has one (else the
   * snapshot's is inherited), and returns the manifests written.
   */
  private static <F extends ContentFile<F>> List<ManifestFile> write(
      RollingManifestWriter<F> writer, Collection<F> files, Function<F, Long> dataSequenceNumber) {
    try (RollingManifestWriter<F> closing = writer) {
      for (F file : files) {
        Long sequence = dataSequenceNumber.apply(file);
        if (sequence != null) {
          closing.add(file, sequence);
        } else {
          closing.add(file);
        }
      }
    } catch (IOException e) {
      throw new RuntimeIOException(e, "Cannot write the manifest of a commit's new files");
    }
    return writer.toManifestFiles();
  }
}
