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
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.RuntimeIOException;

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
            ? new Overwrite(base, maxFilesOnCommittingThread)
            : table.newOverwrite();
    return ManifestScans.onCommittingThreadIfLocal(table, overwrite);
  }

  /** A row delta of {@code table}; see the class comment for where its manifest work runs. */
  public static RowDelta newRowDelta(Table table) {
    return newRowDelta(table, MAX_FILES_ON_COMMITTING_THREAD);
  }

  static RowDelta newRowDelta(Table table, int maxFilesOnCommittingThread) {
    RowDelta delta =
        table instanceof BaseTable base
            ? new Delta(base, maxFilesOnCommittingThread)
            : table.newRowDelta();
    return ManifestScans.onCommittingThreadIfLocal(table, delta);
  }

  private static final class Overwrite extends BaseOverwriteFiles {
    private final int maxFilesOnCommittingThread;

    Overwrite(BaseTable table, int maxFilesOnCommittingThread) {
      super(table.name(), table.operations());
      this.maxFilesOnCommittingThread = maxFilesOnCommittingThread;
      reportWith(table.reporter());
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

    Delta(BaseTable table, int maxFilesOnCommittingThread) {
      super(table.name(), table.operations());
      this.maxFilesOnCommittingThread = maxFilesOnCommittingThread;
      reportWith(table.reporter());
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
