package dev.floe.flink.maintain;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.ManifestScans;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.maintain.plan.AcceptedSlices;
import dev.floe.catalog.maintain.plan.TimeSlices;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.Slice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteSchemaUtil;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Rewrites the position delete files of one slice, like Spark's {@code
 * rewrite_position_delete_files}: per partition, the position deletes (not deletion vectors) are
 * read, the ones naming data files that are no longer live are dropped, and the rest are written
 * sorted into one file, in ONE {@code RewriteFiles} commit through the commit core. A partition is
 * rewritten when it has two or more position delete files, or one with a dangling entry. Rows never
 * change: the commit carries {@code floe.mode=compact}, which no-op detection looks through. Reads
 * metadata and delete files only; no Flink job.
 */
public final class PositionDeleteRewrite {
  /** How lineage names this action ({@code floe.job}). */
  static final String JOB = "floe-maintain-rewrite-position-deletes";

  private final Table table;
  private final String name;

  /**
   * What one slice's rewrite did.
   *
   * @param replaced the position delete files removed
   * @param written the files written in their place (0 or 1 per partition)
   * @param dropped the entries dropped because their data file is no longer live
   * @param kept the entries written again
   * @param snapshotId the commit, or null when there was nothing to do
   */
  public record Result(int replaced, int written, long dropped, long kept, Long snapshotId) {}

  private PositionDeleteRewrite(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  public static PositionDeleteRewrite of(Table table, String name) {
    return new PositionDeleteRewrite(table, name);
  }

  /**
   * Where the current-spec position delete files (not deletion vectors) lie: their time slices
   * ({@code column=value}, the ones {@code --slice} accepts: {@link AcceptedSlices}) in slice
   * order, what {@code floe maintain --rewrite-position-deletes} without {@code --slice} looks at;
   * and the partitions that lie in no time slice (a null {@code day(ts)}, a spec without a time
   * field), which it skips.
   */
  public record Found(List<String> slices, List<String> noSlice) {
    public Found {
      slices = List.copyOf(slices);
      noSlice = List.copyOf(noSlice);
    }
  }

  /** Where the current-spec position delete files lie; reads metadata only. */
  public Found slicesWithPositionDeletes() {
    TreeMap<String, Slice> slices = new TreeMap<>();
    Set<String> noSlice = new java.util.TreeSet<>();
    PartitionSpec spec = table.spec();
    AcceptedSlices accepted = AcceptedSlices.of(table);
    for (DeleteFile delete : positionDeleteFiles()) {
      Optional<Slice> slice = accepted.of(spec, delete.partition());
      if (slice.isPresent()) {
        slices.putIfAbsent(slice.get().start() + "|" + TimeSlices.text(slice.get()), slice.get());
      } else {
        noSlice.add(PartitionPaths.of(spec, delete.partition()));
      }
    }
    return new Found(slices.values().stream().map(TimeSlices::text).toList(), List.copyOf(noSlice));
  }

  /**
   * Refuses a table of format v3 or later that still holds position delete files (written before an
   * upgrade from v2): v3 takes position deletes only as deletion vectors, which this rewrite does
   * not write.
   *
   * @throws InvalidInputException (exit 2) for such a table
   */
  public void checkFormat() {
    table.refresh();
    int version = TableUtil.formatVersion(table);
    if (version < 3) {
      return;
    }
    int files = positionDeleteFiles().size();
    InvalidInputException.check(
        files == 0,
        "Cannot rewrite the position deletes of %s: it is format v%s, where position deletes must"
            + " be deletion vectors, and it holds %s position delete file(s) from before the"
            + " upgrade (Floe writes no deletion vectors; Spark's rewrite_position_delete_files"
            + " turns them into ones)",
        name,
        version,
        files);
  }

  /** The current snapshot's position delete files (not DVs) of the current spec. */
  private List<DeleteFile> positionDeleteFiles() {
    table.refresh();
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return List.of();
    }
    PartitionSpec spec = table.spec();
    List<DeleteFile> found = new ArrayList<>();
    for (ManifestFile manifest : base.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : reader) {
          if (delete.content() == FileContent.POSITION_DELETES
              && !ContentFileUtil.isDV(delete)
              && delete.specId() == spec.specId()) {
            found.add(delete.copyWithoutStats());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the delete manifests of " + name, e);
      }
    }
    return found;
  }

  /**
   * What {@link #rewrite} would do for {@code slice}: the same counts, {@code written} the files it
   * would write and {@code snapshotId} null. Reads metadata and delete files; writes nothing.
   */
  public Result apply(Slice slice) {
    Planned planned = plan(slice);
    if (planned == null) {
      return new Result(0, 0, 0, 0, null);
    }
    return new Result(
        planned.replaced().size(),
        (int) planned.partitions().stream().filter(p -> !p.entries().isEmpty()).count(),
        planned.dropped(),
        planned.kept(),
        null);
  }

  /**
   * Rewrites the position delete files of {@code slice} (partitions of the current spec wholly
   * inside it).
   *
   * @throws CommitConflictException (exit 4) when a commit after planning touched them
   */
  public Result rewrite(Slice slice) {
    Planned planned = plan(slice);
    if (planned == null) {
      return new Result(0, 0, 0, 0, null);
    }
    String runId = UUID.randomUUID().toString();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 0, 0)
            .operationId(runId)
            .format(FileFormat.PARQUET)
            .build();
    List<DeleteFile> written = new ArrayList<>();
    for (PartitionRewrite partition : planned.partitions()) {
      if (!partition.entries().isEmpty()) {
        written.add(write(files, planned.spec(), partition.partition(), partition.entries()));
      }
    }
    Snapshot committed =
        RunCommit.of(
                table,
                new Commit(slice, planned.baseSnapshotId(), runId, planned.replaced(), written))
            .files(written)
            .commit();
    return new Result(
        planned.replaced().size(),
        written.size(),
        planned.dropped(),
        planned.kept(),
        committed.snapshotId());
  }

  /** One partition to rewrite: its delete files and the entries that still name a live file. */
  private record PartitionRewrite(
      StructLike partition, List<DeleteFile> replaced, List<PositionDelete<Record>> entries) {}

  private record Planned(
      long baseSnapshotId,
      PartitionSpec spec,
      List<PartitionRewrite> partitions,
      List<DeleteFile> replaced,
      long dropped,
      long kept) {}

  /** The partitions to rewrite, or null when there is nothing to do. */
  private Planned plan(Slice slice) {
    table.refresh();
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return null;
    }
    PartitionSpec spec = table.spec();
    Evaluator inside = TimeSlices.wholeInside(spec, slice);
    Set<String> live = liveDataFiles(base, slice);
    Map<String, List<DeleteFile>> byPartition = new TreeMap<>();
    Map<String, StructLike> partitions = new LinkedHashMap<>();
    for (ManifestFile manifest : base.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : reader) {
          if (delete.content() != FileContent.POSITION_DELETES
              || ContentFileUtil.isDV(delete)
              || delete.specId() != spec.specId()
              || !inside.eval(delete.partition())) {
            continue;
          }
          String path = PartitionPaths.of(spec, delete.partition());
          byPartition.computeIfAbsent(path, p -> new ArrayList<>()).add(delete.copy());
          partitions.putIfAbsent(path, delete.partition());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the delete manifests of " + name, e);
      }
    }
    List<PartitionRewrite> rewrites = new ArrayList<>();
    List<DeleteFile> replaced = new ArrayList<>();
    long dropped = 0;
    long kept = 0;
    for (Map.Entry<String, List<DeleteFile>> partition : byPartition.entrySet()) {
      List<PositionDelete<Record>> entries = new ArrayList<>();
      long total = 0;
      for (DeleteFile delete : partition.getValue()) {
        for (PositionDelete<Record> entry : read(delete)) {
          total++;
          if (live.contains(entry.path().toString())) {
            entries.add(entry);
          }
        }
      }
      if (partition.getValue().size() < 2 && entries.size() == total) {
        continue; // one file, nothing dangling: already as small as a rewrite makes it
      }
      rewrites.add(
          new PartitionRewrite(partitions.get(partition.getKey()), partition.getValue(), entries));
      replaced.addAll(partition.getValue());
      dropped += total - entries.size();
      kept += entries.size();
    }
    if (replaced.isEmpty()) {
      return null;
    }
    return new Planned(base.snapshotId(), spec, rewrites, replaced, dropped, kept);
  }

  private Set<String> liveDataFiles(Snapshot base, Slice slice) {
    Set<String> live = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(base.snapshotId()).filter(slice.toExpression()).planFiles()) {
      tasks.forEach(t -> live.add(t.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of " + name, e);
    }
    return live;
  }

  private List<PositionDelete<Record>> read(DeleteFile delete) {
    List<PositionDelete<Record>> entries = new ArrayList<>();
    try (CloseableIterable<Record> rows =
        FormatModelRegistry.<Record, Object>readBuilder(
                delete.format(), Record.class, table.io().newInputFile(delete))
            .project(DeleteSchemaUtil.pathPosSchema())
            .build()) {
      for (Record row : rows) {
        entries.add(PositionDelete.<Record>create().set(row.get(0).toString(), (Long) row.get(1)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read delete file " + delete.location(), e);
    }
    return entries;
  }

  private DeleteFile write(
      OutputFileFactory files,
      PartitionSpec spec,
      StructLike partition,
      List<PositionDelete<Record>> entries) {
    entries.sort(
        Comparator.comparing((PositionDelete<Record> d) -> d.path().toString())
            .thenComparingLong(PositionDelete::pos));
    PositionDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .build()
            .newPositionDeleteWriter(files.newOutputFile(spec, partition), spec, partition);
    try (writer) {
      for (PositionDelete<Record> entry : entries) {
        writer.write(entry);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write position deletes for " + name, e);
    }
    return writer.toDeleteFile();
  }

  /** The rewrite as the commit core sees it: never retried, refused when the files changed. */
  private final class Commit implements CommitAction<Snapshot> {
    private final Slice slice;
    private final long baseSnapshotId;
    private final String runId;
    private final List<DeleteFile> replaced;
    private final List<DeleteFile> written;

    Commit(
        Slice slice,
        long baseSnapshotId,
        String runId,
        List<DeleteFile> replaced,
        List<DeleteFile> written) {
      this.slice = slice;
      this.baseSnapshotId = baseSnapshotId;
      this.runId = runId;
      this.replaced = replaced;
      this.written = written;
    }

    @Override
    public String subject() {
      return "the position delete rewrite of slice " + slice.label() + " of " + name;
    }

    @Override
    public String target() {
      return name;
    }

    @Override
    public String runId() {
      return runId;
    }

    @Override
    public Attempt<Snapshot> prepare(Table refreshed, int attempt) {
      RewriteFiles rewrite = refreshed.newRewrite().validateFromSnapshot(baseSnapshotId);
      ManifestScans.onCommittingThreadIfLocal(refreshed, rewrite);
      replaced.forEach(rewrite::deleteFile);
      written.forEach(rewrite::addFile);
      String label = slice.label();
      Map<String, String> summary =
          new LinkedHashMap<>(
              new Lineage(
                      RunKey.of(JOB, name, label, "", CodeVersion.current()),
                      runId,
                      JOB,
                      WriteMode.COMPACT_LINEAGE_MODE,
                      label,
                      CodeVersion.current(),
                      0,
                      null,
                      Map.of(),
                      null)
                  .toSummary());
      // Rows are unchanged: no floe.rows / floe.content-hash that could pass for the slice's.
      summary.remove(LineageKeys.ROWS);
      summary.remove(LineageKeys.CONTENT_HASH);
      summary.values().removeIf(v -> v == null);
      summary.forEach(rewrite::set);
      return Attempt.commit(rewrite::commit);
    }

    @Override
    public Optional<Snapshot> onConflict(
        Table refreshed, ValidationException conflict, int attempt) {
      throw new CommitConflictException(
          String.format(
              "Cannot rewrite the position deletes of slice %s of %s: %s; nothing was committed",
              slice.label(), name, conflict.getMessage()),
          conflict);
    }

    @Override
    public Snapshot committed(Table refreshed, Snapshot snapshot, int attempt) {
      return snapshot;
    }
  }
}
