package dev.floe.flink.merge;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.CommitUpdates;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.commit.SourceDrift;
import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.row.RowDataHasher;
import dev.floe.flink.write.DataFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.encryption.InputFilesDecryptor;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a merge or insert-if-absent batch copy-on-write, as ONE snapshot:
 *
 * <ol>
 *   <li>checks on the batch (the source reduced to one row per key);
 *   <li>probe: from the target's current snapshot, select the files of the scope whose key bounds
 *       could hold a key of the batch, and read only their key (and ordering) columns, to find
 *       which keys exist and which rows the batch replaces (merge: strictly newer ordering only);
 *   <li>nothing to change: no-op, nothing written;
 *   <li>rewrite: the files holding a replaced or deleted row are rewritten whole, with the batch's
 *       rows in place of the replaced ones; new keys go to new files. On a table with row lineage
 *       (format version 3) a row copied unchanged keeps its {@code _row_id} and {@code
 *       _last_updated_sequence_number}, a replacing row the {@code _row_id} of the row it replaces
 *       (its sequence number becomes the commit's), and a new key gets both on commit;
 *   <li>commit: remove the rewritten files and add the new ones, validated from the probed snapshot
 *       with conflict detection on the touched partitions.
 * </ol>
 *
 * A conflict re-runs the probe on the new head: the ordering guard makes that safe, because a newer
 * value committed meanwhile is never replaced. With delete_missing it is not (a newer run may have
 * added keys this batch lacks), so the run stops with a conflict instead.
 *
 * <p>Plain Iceberg and Flink's row classes, no Flink runtime: tested directly against a catalog.
 */
public final class KeyedCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(KeyedCommitter.class);

  private final Catalog catalog;
  private final MergePlan plan;
  private final CommitPlan commit;
  private final RowType rowType;
  private final int threads;
  private final Runnable beforeCommit;
  private final Consumer<DataFile> beforeRewriting;

  /** A committer that probes and rewrites on the caller's thread only. */
  public KeyedCommitter(Catalog catalog, MergePlan plan, RowType rowType) {
    this(catalog, plan, rowType, 1);
  }

  /**
   * @param threads how many files are probed, and how many rewritten, at once (the job's
   *     parallelism); the committed files and counts are the same whatever the number
   */
  public KeyedCommitter(Catalog catalog, MergePlan plan, RowType rowType, int threads) {
    this(catalog, plan, rowType, threads, () -> {}, file -> {});
  }

  /**
   * @param beforeCommit runs between the probe and the commit: tests commit a concurrent change
   *     there, to drive the conflict path deterministically
   */
  KeyedCommitter(Catalog catalog, MergePlan plan, RowType rowType, Runnable beforeCommit) {
    this(catalog, plan, rowType, 1, beforeCommit, file -> {});
  }

  /**
   * @param beforeRewriting runs on the rewriting thread before each touched file is read for its
   *     rewrite: tests fail one rewrite there, or check that rewrites run at once
   */
  KeyedCommitter(
      Catalog catalog,
      MergePlan plan,
      RowType rowType,
      int threads,
      Runnable beforeCommit,
      Consumer<DataFile> beforeRewriting) {
    if (threads < 1) {
      throw new IllegalArgumentException(
          "Cannot merge with " + threads + " threads: at least 1 is needed");
    }
    this.catalog = catalog;
    this.plan = plan;
    this.commit = plan.commit();
    this.rowType = rowType;
    this.threads = threads;
    this.beforeCommit = beforeCommit;
    this.beforeRewriting = beforeRewriting;
  }

  /**
   * What the probe found: the files to rewrite and the keys they replace; on a table with row
   * lineage, by matched key, the {@code _row_id} of its newest target row (the one a replacing row
   * takes), else no ids.
   */
  private record Probe(
      List<FileScanTask> touched,
      Set<KeyHash> replaced,
      Set<KeyHash> matched,
      Map<KeyHash, Long> rowIds,
      MergeCounts counts) {}

  /**
   * @throws CheckFailedException when a check fails on the batch (nothing committed)
   * @throws CommitConflictException when conflicts outlast the retries, hit a delete_missing run,
   *     or a source was rewritten during the run
   * @throws dev.floe.catalog.error.CommitStateUnknownException when the catalog did not say whether
   *     the commit happened and the run id is not in the history (files kept)
   */
  public CommitOutcome commit(SourceBatch batch) {
    batch.requireUnambiguous();
    List<String> failures = BatchChecks.failures(commit.checks(), rowType, batch.winners());
    if (!failures.isEmpty()) {
      throw new CheckFailedException(
          String.format(
              "Cannot %s %s: %d check(s) failed: %s",
              verb(), subject(), failures.size(), String.join(" | ", failures)));
    }
    Table table = Catalogs.loadTable(catalog, commit.target());
    try (FileWorkers workers = new FileWorkers(threads, "floe-merge")) {
      return RunCommit.of(table, new Merge(batch, workers))
          .failAt(commit.failAt())
          .maxAttempts(commit.maxConflictRetries() + 1)
          .commit();
    }
  }

  /** The copy-on-write merge, as the commit core sees it: probe, rewrite, one overwrite. */
  private final class Merge implements CommitAction<CommitOutcome> {
    private final SourceBatch batch;
    private final FileWorkers workers;
    private final ContentHash content;
    private final Map<String, Collection<Comparable<?>>> keyValues;
    private Long base;
    private Probe probe;

    Merge(SourceBatch batch, FileWorkers workers) {
      this.batch = batch;
      this.workers = workers;
      this.content = batch.contentHash();
      this.keyValues = keyValues(batch);
    }

    @Override
    public String subject() {
      return KeyedCommitter.this.subject();
    }

    @Override
    public String target() {
      return commit.target();
    }

    @Override
    public String runId() {
      return commit.lineage().runId();
    }

    @Override
    public String branch() {
      return commit.branch();
    }

    @Override
    public Attempt<CommitOutcome> prepare(Table table, int attempt) {
      base = RunLookup.headId(table);
      if (!FlinkSchemaUtil.convert(table.schema()).equals(rowType)) {
        // The batch was shaped for the schema the job was planned with; rows read now would not
        // line up with it.
        throw new CommitConflictException(
            String.format(
                "Cannot %s %s: its schema changed while the run was in flight (now %s);"
                    + " nothing was committed, rerun",
                verb(), subject(), table.schema().asStruct()));
      }
      probe = probe(table, base, batch, keyValues, workers);
      if (probe.counts().changesNothing()) {
        return Attempt.done(
            outcome(
                CommitOutcome.Status.NO_OP,
                base,
                content,
                attempt,
                "nothing to change: " + probe.counts().describe()));
      }
      if (commit.dryRun()) {
        return Attempt.done(
            outcome(
                CommitOutcome.Status.DRY_RUN,
                base,
                content,
                attempt,
                "dry run: checks passed; a real run would commit one snapshot on "
                    + commit.destination()
                    + ": "
                    + probe.counts().describe()));
      }
      SourceDrift.requireNoRewrite(catalog, commit.lineage(), commit.scope(), subject());
      Lineage lineage = commit.lineage().withContent(content);
      List<DataFile> written = rewrite(table, probe, batch, attempt, workers);
      commit.failAt().failIf(FailurePoint.AFTER_SOME_FILES, "after writing " + subject());
      commit.failAt().failIf(FailurePoint.AFTER_ALL_FILES, "after writing " + subject());
      try {
        OverwriteFiles overwrite = newOverwrite(table, base, probe, written, lineage, keyValues);
        beforeCommit.run();
        return Attempt.commit(overwrite::commit, written);
      } catch (RuntimeException e) {
        UncommittedFiles.delete(table, written);
        throw e;
      }
    }

    @Override
    public Optional<CommitOutcome> onConflict(
        Table table, ValidationException conflict, int attempt) {
      Long head = RunLookup.headId(table);
      if (Objects.equals(head, base)) {
        // Nothing was committed meanwhile: Iceberg refused the commit for a reason of its own.
        throw new IllegalStateException(
            String.format(
                "Cannot %s %s: Iceberg refused the commit: %s",
                verb(), subject(), conflict.getMessage()),
            conflict);
      }
      if (base != null && (head == null || !SnapshotUtil.isAncestorOf(table, head, base))) {
        throw new CommitConflictException(
            String.format(
                "Cannot %s %s: the table was rolled back while the run was in flight (its current"
                    + " snapshot %s does not descend from snapshot %d, which the run read);"
                    + " nothing was committed; rerun",
                verb(), subject(), head, base),
            conflict);
      }
      if (plan.deleteMissing()) {
        throw new CommitConflictException(
            String.format(
                "Cannot %s %s: another commit changed it after this run started (%s); with"
                    + " delete_missing a re-merge could delete rows that newer source data"
                    + " added, so nothing was committed; rerun to merge the current source",
                verb(), subject(), conflict.getMessage()),
            conflict);
      }
      LOG.info("{} of {} conflicted, probing the new head: {}", verb(), subject(), conflict);
      return Optional.empty();
    }

    @Override
    public CommitOutcome committed(Table table, Snapshot snapshot, int attempt) {
      String detail =
          attempt == 0 || probe == null
              ? "committed"
              : (attempt == 1 ? "committed: " : "committed after re-probing a newer head: ")
                  + probe.counts().describe();
      return outcome(
          CommitOutcome.Status.COMMITTED,
          snapshot.snapshotId(),
          content,
          Math.max(attempt, 1),
          detail);
    }
  }

  /**
   * What the probe found in one candidate file: the batch's keys it holds, each with the newest
   * ordering value among its rows there (null when that is null, or without an ordering guard), and
   * with that row's {@code _row_id} when it was read (see {@link Probe#rowIds}); and how many of
   * its rows {@code delete_missing} deletes.
   */
  private record FileProbe(
      Map<KeyHash, Comparable<?>> matched, Map<KeyHash, Long> rowIds, long deleted) {}

  private Probe probe(
      Table table,
      Long base,
      SourceBatch batch,
      Map<String, Collection<Comparable<?>>> keyValues,
      FileWorkers workers) {
    CandidateFiles.Selection selection =
        CandidateFiles.select(table, base, commit.scope(), keyValues, plan.deleteMissing());
    List<String> columns = new ArrayList<>(plan.key());
    if (!plan.insertOnly()) {
      columns.add(plan.ordering());
    }
    Schema stored = StoredRows.schema(table);
    if (!plan.insertOnly() && hasRowLineage(stored)) {
      // A replacing row keeps the row id of the row it replaces.
      columns.add(MetadataColumns.ROW_ID.name());
    }
    Schema projected = stored.select(columns);
    // Candidate files are independent and the batch is only read: probe them at once, then
    // combine in the candidates' order.
    List<FileProbe> found =
        workers.map(
            selection.candidates(),
            (task, cancelled) -> probeFile(table, task, projected, batch, cancelled),
            results -> {});
    // A key held by several target rows (a keyed table should hold it once, but a sliced run or
    // another writer can add it twice) is judged against the newest of them: the source replaces
    // them all only when it is newer than every one, so an older source row never replaces a
    // newer target row in another file.
    Map<KeyHash, Comparable<?>> newest = new HashMap<>();
    Map<KeyHash, Long> rowIds = new HashMap<>();
    long deleted = 0;
    for (FileProbe file : found) {
      file.matched()
          .forEach(
              (key, ordering) -> {
                if (!newest.containsKey(key) || newer(ordering, newest.get(key))) {
                  newest.put(key, ordering);
                  rowIds.put(key, file.rowIds().get(key));
                }
              });
      deleted += file.deleted();
    }
    Set<KeyHash> matched = newest.keySet();
    Set<KeyHash> replaced = new HashSet<>();
    if (!plan.insertOnly()) {
      ColumnValues.Reader sourceOrdering = sourceOrdering();
      newest.forEach(
          (key, ordering) -> {
            if (newer(sourceOrdering.read(batch.get(key)), ordering)) {
              replaced.add(key);
            }
          });
    }
    List<FileScanTask> touched = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      FileProbe file = found.get(i);
      if (file.deleted() > 0 || file.matched().keySet().stream().anyMatch(replaced::contains)) {
        touched.add(selection.candidates().get(i));
      }
    }
    long updated = replaced.size();
    long inserted = batch.size() - matched.size();
    MergeCounts counts =
        new MergeCounts(
            batch.received(),
            batch.size(),
            inserted,
            updated,
            matched.size() - replaced.size(),
            deleted,
            selection.filesInScope(),
            selection.candidates().size(),
            touched.size());
    return new Probe(touched, replaced, matched, rowIds, counts);
  }

  /** Reads one candidate file's key (and ordering) columns; safe to run on several threads. */
  private FileProbe probeFile(
      Table table,
      FileScanTask task,
      Schema projected,
      SourceBatch batch,
      BooleanSupplier cancelled) {
    boolean compareOrdering = !plan.insertOnly();
    RowType projectedType = FlinkSchemaUtil.convert(projected);
    RowDataHasher keyHasher = new RowDataHasher(projectedType, plan.key());
    ColumnValues.Reader targetOrdering =
        compareOrdering
            ? ColumnValues.reader(
                projectedType.getTypeAt(projectedType.getFieldIndex(plan.ordering())),
                projectedType.getFieldIndex(plan.ordering()))
            : null;
    int rowIdPos = projectedType.getFieldIndex(MetadataColumns.ROW_ID.name());
    Map<KeyHash, Comparable<?>> matched = new HashMap<>();
    Map<KeyHash, Long> rowIds = new HashMap<>();
    long deleted = 0;
    try (CloseableIterator<RowData> rows = read(table, task, projected)) {
      while (rows.hasNext()) {
        if (cancelled.getAsBoolean()) {
          throw new FileWorkers.Cancelled();
        }
        RowData target = rows.next();
        long[] hash = keyHasher.hash128(target);
        KeyHash key = new KeyHash(hash[0], hash[1]);
        if (batch.get(key) == null) {
          if (plan.deleteMissing()) {
            deleted++;
          }
          continue;
        }
        Comparable<?> ordering = compareOrdering ? targetOrdering.read(target) : null;
        if (!matched.containsKey(key) || newer(ordering, matched.get(key))) {
          matched.put(key, ordering);
          if (rowIdPos >= 0) {
            rowIds.put(key, target.isNullAt(rowIdPos) ? null : target.getLong(rowIdPos));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + task.file().location(), e);
    }
    return new FileProbe(matched, rowIds, deleted);
  }

  /** Reads the ordering column of a source row. */
  private ColumnValues.Reader sourceOrdering() {
    int orderingPos = rowType.getFieldIndex(plan.ordering());
    return ColumnValues.reader(rowType.getTypeAt(orderingPos), orderingPos);
  }

  /**
   * The ordering guard: the source replaces a target row only when strictly newer; a null target
   * value is older than any other. Also orders target values: a null candidate is never newer.
   */
  private static boolean newer(Comparable<?> source, Comparable<?> target) {
    return source != null && (target == null || ColumnValues.compare(source, target) > 0);
  }

  /**
   * Rewrites the touched files, a group of them per writer (see {@link RewriteGroups}), the groups
   * at once on the workers; the batch's rows to write (new keys, and the rows that replace a key's
   * target rows) go with their partition's last group, or to one more writer when no group rewrites
   * their partition. The replaced-key set and the batch are only read. The files come back in the
   * groups' order, that last writer's last, whatever the thread count. On a failure every file
   * written is deleted (writers in flight abort theirs) and the first failure is thrown.
   */
  private List<DataFile> rewrite(
      Table table, Probe probe, SourceBatch batch, int attempt, FileWorkers workers) {
    long targetFileSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    List<List<FileScanTask>> groups =
        RewriteGroups.of(probe.touched(), table.specs(), targetFileSize);
    List<List<RowData>> newRows = newRowsByUnit(table, probe, batch, groups);
    List<RewriteUnit> units = new ArrayList<>(groups.size() + 1);
    for (int i = 0; i < groups.size(); i++) {
      units.add(new RewriteUnit(i, groups.get(i), newRows.get(i)));
    }
    if (!newRows.get(groups.size()).isEmpty()) {
      units.add(new RewriteUnit(groups.size(), List.of(), newRows.get(groups.size())));
    }
    List<List<DataFile>> written =
        workers.map(
            units,
            (unit, cancelled) -> writeUnit(table, probe, batch, attempt, unit, cancelled),
            done -> UncommittedFiles.delete(table, done.stream().flatMap(List::stream).toList()));
    List<DataFile> all = new ArrayList<>();
    written.forEach(all::addAll);
    return all;
  }

  /**
   * The batch's rows to write (new keys and replacing rows) by the unit that writes them: a row
   * whose partition (under the current spec, which new rows are written with) has a rewritten group
   * goes to that partition's last group, so a partition that gets both updates and new keys still
   * gets one file, as with one writer; the others go to one more unit (index {@code
   * groups.size()}). On a table with row lineage each row carries its lineage ({@link
   * #withLineage}).
   */
  private List<List<RowData>> newRowsByUnit(
      Table table, Probe probe, SourceBatch batch, List<List<FileScanTask>> groups) {
    List<List<RowData>> byUnit = new ArrayList<>(groups.size() + 1);
    for (int i = 0; i <= groups.size(); i++) {
      byUnit.add(new ArrayList<>());
    }
    if (batch.size() <= probe.matched().size() && probe.replaced().isEmpty()) {
      return byUnit;
    }
    Map<Object, Integer> lastGroup = new HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      lastGroup.put(RewriteGroups.partitionOf(groups.get(i).get(0), table.specs()), i);
    }
    boolean lineage = hasRowLineage(StoredRows.schema(table));
    PartitionSpec spec = table.spec();
    PartitionKey partition = new PartitionKey(spec, table.schema());
    RowDataWrapper wrapper = new RowDataWrapper(rowType, table.schema().asStruct());
    for (Map.Entry<KeyHash, RowData> row : batch.rows().entrySet()) {
      if (!probe.matched().contains(row.getKey()) || probe.replaced().contains(row.getKey())) {
        partition.partition(wrapper.wrap(row.getValue()));
        Integer group = lastGroup.get(RewriteGroups.key(spec, partition.copy()));
        byUnit
            .get(group == null ? groups.size() : group)
            .add(
                lineage
                    ? withLineage(row.getValue(), probe.rowIds().get(row.getKey()))
                    : row.getValue());
      }
    }
    return byUnit;
  }

  /**
   * A batch row as written into a table with row lineage ({@link StoredRows#schema}): with the
   * {@code _row_id} of the target row it replaces, null for a new key (assigned on commit), and a
   * null {@code _last_updated_sequence_number}, which the commit's sequence number fills.
   */
  private static RowData withLineage(RowData row, Long rowId) {
    return new JoinedRowData(row.getRowKind(), row, GenericRowData.of(rowId, null));
  }

  /** Whether {@code stored} ({@link StoredRows#schema}) holds the row lineage columns. */
  private static boolean hasRowLineage(Schema stored) {
    return stored.findField(MetadataColumns.ROW_ID.fieldId()) != null;
  }

  /**
   * One writer's share of a rewrite: the files it rewrites and the batch's new rows it adds; its
   * index names its files.
   */
  private record RewriteUnit(int index, List<FileScanTask> files, List<RowData> newRows) {}

  private List<DataFile> writeUnit(
      Table table,
      Probe probe,
      SourceBatch batch,
      int attempt,
      RewriteUnit unit,
      BooleanSupplier cancelled) {
    // The table's columns, then on a table with row lineage the lineage columns: a row copied
    // unchanged keeps its row id and sequence number. The key is hashed by the columns' position.
    Schema stored = StoredRows.schema(table);
    TaskWriter<RowData> writer = DataFileWriters.create(table, stored, unit.index(), attempt);
    try {
      RowDataHasher keyHasher = new RowDataHasher(rowType, plan.key());
      for (FileScanTask task : unit.files()) {
        beforeRewriting.accept(task.file());
        try (CloseableIterator<RowData> rows = read(table, wholeFile(task), stored)) {
          while (rows.hasNext()) {
            if (cancelled.getAsBoolean()) {
              throw new FileWorkers.Cancelled();
            }
            RowData target = rows.next();
            long[] hash = keyHasher.hash128(target);
            KeyHash key = new KeyHash(hash[0], hash[1]);
            // A replaced key's source row is written once, with the new rows; every target
            // row of the key goes.
            if (!probe.replaced().contains(key)
                && (!plan.deleteMissing() || batch.get(key) != null)) {
              writer.write(target);
            }
          }
        }
      }
      for (RowData row : unit.newRows()) {
        writer.write(row);
      }
      return Arrays.asList(writer.complete().dataFiles());
    } catch (IOException | RuntimeException | Error e) {
      try {
        writer.abort();
      } catch (IOException abortFailed) {
        e.addSuppressed(abortFailed);
      }
      if (e instanceof IOException io) {
        throw new UncheckedIOException("Cannot write the merged files of " + subject(), io);
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw (Error) e;
    }
  }

  private OverwriteFiles newOverwrite(
      Table table,
      Long base,
      Probe probe,
      List<DataFile> written,
      Lineage lineage,
      Map<String, Collection<Comparable<?>>> keyValues) {
    OverwriteFiles overwrite = CommitUpdates.newOverwrite(table);
    List<ContentFile<?>> footprint = new ArrayList<>();
    for (FileScanTask task : probe.touched()) {
      overwrite.deleteFile(task.file());
      footprint.add(task.file());
    }
    written.forEach(overwrite::addFile);
    footprint.addAll(written);
    // A concurrent commit conflicts when it touched a partition we rewrite or add to, or added
    // rows that may hold one of our keys anywhere in the scope: partitioning by a non-key column
    // (a dimension by region) must not let another run insert the same key elsewhere.
    Expression conflicts =
        Expressions.and(
            commit.scope().toExpression(),
            Expressions.or(
                PartitionFilters.touched(table, footprint), KeyFilters.of(table, keyValues)));
    overwrite
        .conflictDetectionFilter(conflicts)
        .validateNoConflictingData()
        .validateNoConflictingDeletes();
    if (base != null) {
      overwrite.validateFromSnapshot(base);
    }
    if (commit.branch() != null) {
      overwrite.toBranch(commit.branch()); // forks from main's head, which the probe read
    }
    lineage.toSummary().forEach(overwrite::set);
    return overwrite;
  }

  /**
   * The task without its residual filter. The probe's task carries the key filter, with which
   * Parquet skips row groups holding no batch key: right for finding keys, but a rewrite that
   * skipped them would drop their rows.
   */
  private static FileScanTask wholeFile(FileScanTask task) {
    return new BaseFileScanTask(
        task.file(),
        task.deletes().toArray(DeleteFile[]::new),
        SchemaParser.toJson(task.schema()),
        PartitionSpecParser.toJson(task.spec()),
        ResidualEvaluator.unpartitioned(Expressions.alwaysTrue()));
  }

  private static CloseableIterator<RowData> read(Table table, FileScanTask task, Schema projected) {
    // Iceberg's own reader: applies the file's delete files, so a row deleted by another writer
    // is neither matched nor resurrected by the rewrite.
    RowDataFileScanTaskReader reader =
        new RowDataFileScanTaskReader(
            table.schema(),
            projected,
            table.properties().get(TableProperties.DEFAULT_NAME_MAPPING),
            true,
            List.of());
    return reader.open(
        task,
        new InputFilesDecryptor(new BaseCombinedScanTask(task), table.io(), table.encryption()));
  }

  /** Per key column, the batch's distinct values, for pruning files by their bounds. */
  private Map<String, Collection<Comparable<?>>> keyValues(SourceBatch batch) {
    Map<String, Collection<Comparable<?>>> values = new LinkedHashMap<>();
    for (String column : plan.key()) {
      int pos = rowType.getFieldIndex(column);
      ColumnValues.Reader reader = ColumnValues.reader(rowType.getTypeAt(pos), pos);
      Set<Comparable<?>> distinct = new LinkedHashSet<>();
      batch.winners().forEach(row -> distinct.add(reader.read(row)));
      values.put(column, distinct);
    }
    return values;
  }

  private static CommitOutcome outcome(
      CommitOutcome.Status status,
      Long snapshotId,
      ContentHash content,
      int attempts,
      String detail) {
    return new CommitOutcome(
        status, snapshotId, content.rows(), content.encode(), attempts, detail);
  }

  private String verb() {
    return plan.insertOnly() ? "insert into" : "merge into";
  }

  private String subject() {
    return commit.scope().isWholeTable()
        ? commit.target()
        : "slice " + commit.scope().label() + " of " + commit.target();
  }
}
