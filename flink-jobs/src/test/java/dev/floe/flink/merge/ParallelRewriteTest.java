package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.run.RunOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The keyed committer probes and rewrites files on several threads: the table it commits is the one
 * a single thread commits, and a failed rewrite leaves neither a change nor a file behind.
 */
class ParallelRewriteTest {
  private static final int DAYS = 6;
  private static final int FILES_PER_DAY = 2;
  private static final int ROWS_PER_FILE = 20;

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void rewritingOnFourThreadsCommitsTheSameFilesRowsAndLineageAsOneThread() {
    Table single = events("sales.events_single");
    Table parallel = events("sales.events_parallel");
    Set<Thread> rewriters = ConcurrentHashMap.newKeySet();
    CountDownLatch twoRewriters = new CountDownLatch(2);
    Consumer<DataFile> atOnce =
        file -> {
          // The first two threads to rewrite wait for each other: only rewrites that run at
          // once get past this.
          if (rewriters.add(Thread.currentThread())) {
            twoRewriters.countDown();
            try {
              if (!twoRewriters.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("no second thread rewrote a file within 30 s");
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new AssertionError(e);
            }
          }
        };

    CommitOutcome one = committer("sales.events_single", 1, file -> {}).commit(batch(single));
    CommitOutcome four = committer("sales.events_parallel", 4, atOnce).commit(batch(parallel));

    assertThat(rewriters).hasSizeGreaterThanOrEqualTo(2);
    single = catalog.load("sales.events_single");
    parallel = catalog.load("sales.events_parallel");
    assertThat(four.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(four.detail())
        .isEqualTo(one.detail())
        .contains("2 inserted, 12 updated, 1 unchanged")
        .contains("read 12 and rewrote 12 of 12 files in scope");
    assertThat(four.rows()).isEqualTo(one.rows());
    assertThat(four.contentHash()).isEqualTo(one.contentHash());
    ContentHash merged = TableContent.hash(parallel);
    assertThat(merged).isEqualTo(TableContent.hash(single));
    assertThat(rows(parallel)).isEqualTo(rows(single)).isEqualTo(expectedRows());
    // One file per rewritten day (its two files grouped for one writer, with the day's new key),
    // and one for the day that only new keys reach.
    assertThat(dataFiles(parallel)).isEqualTo(dataFiles(single)).isEqualTo(DAYS + 1);
    for (String count :
        List.of(
            "added-data-files",
            "deleted-data-files",
            "added-records",
            "deleted-records",
            "changed-partition-count",
            "floe.rows",
            "floe.content-hash")) {
      assertThat(parallel.currentSnapshot().summary().get(count))
          .as(count)
          .isNotNull()
          .isEqualTo(single.currentSnapshot().summary().get(count));
    }
    assertThat(parallel.currentSnapshot().summary())
        .containsEntry("added-data-files", String.valueOf(DAYS + 1))
        .containsEntry("deleted-data-files", String.valueOf(DAYS * FILES_PER_DAY));
  }

  @Test
  void theFilesAMergeReadsComeInOneOrderHoweverIcebergPlansTheManifests() {
    Table table =
        catalog.create(
            "sales.events_manifests",
            EventTables.EVENTS,
            PartitionSpec.builderFor(EventTables.EVENTS).identity("event_day").build());
    // One manifest per append: Iceberg plans manifests in parallel, in no fixed order.
    for (int file = 0; file < 16; file++) {
      Record[] rows = new Record[1 + file];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = event(table, id(0, file, i), 0, "v1", 1);
      }
      table.newAppend().appendFile(TableRows.write(table, rows)).commit();
    }
    table = catalog.load("sales.events_manifests");
    Map<String, Collection<Comparable<?>>> keys = Map.of("id", List.of(id(0, 0, 0), id(0, 15, 0)));
    Set<List<String>> orders = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      orders.add(
          CandidateFiles.select(
                  table, table.currentSnapshot().snapshotId(), Scope.wholeTable(), keys, true)
              // every file in scope, as delete_missing reads them
              .candidates()
              .stream()
              .map(task -> task.file().location())
              .toList());
    }
    assertThat(orders).hasSize(1);
    assertThat(orders.iterator().next()).hasSize(16);
  }

  @Test
  void aFailedRewriteOnOneThreadCommitsNothingAndLeavesNoFileOfTheRun() {
    Table events = events("sales.events");
    long head = events.currentSnapshot().snapshotId();
    ContentHash before = TableContent.hash(events);
    Set<Path> filesBefore = parquetFiles();
    AtomicInteger rewrites = new AtomicInteger();
    int touched = DAYS * FILES_PER_DAY;
    // The last file to start its rewrite fails: with two threads, by then the other thread's
    // groups (and the new keys' file) are written or being written, and must all go.
    Consumer<DataFile> failLast =
        file -> {
          if (rewrites.incrementAndGet() == touched) {
            throw new IllegalStateException("Cannot read " + file.location() + ": injected");
          }
        };

    assertThatThrownBy(() -> committer("sales.events", 2, failLast).commit(batch(events)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot read ")
        .hasMessageEndingWith(": injected");

    Table after = catalog.load("sales.events");
    assertThat(rewrites).hasValue(touched);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(after)).isEqualTo(before);
    assertThat(parquetFiles()).isEqualTo(filesBefore);
  }

  @Test
  void anInterruptedCommitterStopsItsRewritesCommitsNothingAndKeepsTheInterrupt() {
    Table events = events("sales.events");
    long head = events.currentSnapshot().snapshotId();
    ContentHash before = TableContent.hash(events);
    Set<Path> filesBefore = parquetFiles();
    Thread committerThread = Thread.currentThread();
    AtomicInteger rewrites = new AtomicInteger();
    // Flink cancels a task by interrupting its thread: here while the workers rewrite.
    Consumer<DataFile> interruptOnce =
        file -> {
          if (rewrites.incrementAndGet() == 1) {
            committerThread.interrupt();
          }
        };

    Throwable thrown = null;
    try {
      committer("sales.events", 2, interruptOnce).commit(batch(events));
    } catch (RuntimeException e) {
      thrown = e;
    }
    boolean stillInterrupted = Thread.interrupted(); // clears it for the checks below

    assertThat(thrown)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot finish the work on ")
        .hasMessageEndingWith(" files: the task was interrupted");
    assertThat(stillInterrupted).isTrue();
    Table after = catalog.load("sales.events");
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(after)).isEqualTo(before);
    assertThat(parquetFiles()).isEqualTo(filesBefore);
  }

  /** {@code DAYS} days of {@code FILES_PER_DAY} files; ids {@code day*100 + file*20 + i}. */
  private Table events(String name) {
    Table table =
        catalog.create(
            name,
            EventTables.EVENTS,
            PartitionSpec.builderFor(EventTables.EVENTS).identity("event_day").build());
    AppendFiles append = table.newAppend();
    for (int day = 0; day < DAYS; day++) {
      for (int file = 0; file < FILES_PER_DAY; file++) {
        Record[] rows = new Record[ROWS_PER_FILE];
        for (int i = 0; i < ROWS_PER_FILE; i++) {
          rows[i] = event(table, id(day, file, i), day, "v1", 1);
        }
        append.appendFile(TableRows.write(table, rows));
      }
    }
    append.commit();
    return table;
  }

  /**
   * One newer row per file, one older row (unchanged), a new key in a rewritten day and one in a
   * new day.
   */
  private static SourceBatch batch(Table table) {
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    SourceBatch batch = new SourceBatch(table.name(), rowType, List.of("id"), "version", true);
    for (int day = 0; day < DAYS; day++) {
      for (int file = 0; file < FILES_PER_DAY; file++) {
        batch.add(source(id(day, file, 3), day, "v2", 2));
      }
    }
    batch.add(source(id(0, 0, 4), 0, "old", 0));
    batch.add(source(10_000, DAYS - 1, "new", 1));
    batch.add(source(10_001, DAYS + 3, "new", 1));
    return batch;
  }

  private static List<String> expectedRows() {
    List<String> rows = new ArrayList<>();
    for (int day = 0; day < DAYS; day++) {
      for (int file = 0; file < FILES_PER_DAY; file++) {
        for (int i = 0; i < ROWS_PER_FILE; i++) {
          rows.add(id(day, file, i) + ":" + (i == 3 ? "v2:2" : "v1:1"));
        }
      }
    }
    rows.add("10000:new:1");
    rows.add("10001:new:1");
    rows.sort(null);
    return rows;
  }

  private KeyedCommitter committer(String target, int threads, Consumer<DataFile> hook) {
    Lineage lineage =
        new Lineage("key", "run-1", "test", "merge", "all", "test", 0, null, Map.of(), null);
    CommitPlan commit =
        new CommitPlan(
            catalog.config(),
            target,
            Scope.wholeTable(),
            WriteMode.MERGE,
            false,
            lineage,
            null,
            catalog.load(target).schema().schemaId(),
            List.of(),
            RunOptions.defaults());
    RowType rowType = FlinkSchemaUtil.convert(catalog.load(target).schema());
    return new KeyedCommitter(
        catalog.catalog(),
        new MergePlan(commit, List.of("id"), "version", false),
        rowType,
        threads,
        () -> {},
        hook);
  }

  private static long id(int day, int file, int i) {
    return day * 100L + file * ROWS_PER_FILE + i;
  }

  private static Record event(Table table, long id, int day, String v, long version) {
    return TableRows.row(
        table,
        Map.of(
            "id",
            id,
            "event_day",
            EventTables.FIRST_DAY.plusDays(day),
            "v",
            v,
            "version",
            version));
  }

  private static GenericRowData source(long id, int day, String v, long version) {
    return GenericRowData.of(
        id,
        (int) EventTables.FIRST_DAY.plusDays(day).toEpochDay(),
        StringData.fromString(v),
        version);
  }

  private static List<String> rows(Table table) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(
          r -> rows.add(r.getField("id") + ":" + r.getField("v") + ":" + r.getField("version")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  private static int dataFiles(Table table) {
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count;
  }

  private Set<Path> parquetFiles() {
    try (Stream<Path> files = Files.walk(catalog.home())) {
      return new TreeSet<>(files.filter(f -> f.toString().endsWith(".parquet")).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
