package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.Expire;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.snapshot.SliceContent;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.commit.SliceCommitter;
import dev.floe.flink.run.RunOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Successive single-slice overwrites of a day-partitioned table through Floe's commit path: for
 * each commit the slice's rows are written as one Parquet file (not timed, like a run's writers),
 * then {@link SliceCommitter#commit} is timed, the routine a {@code floe run} ends in (load the
 * table, checks, the slice's current content for the no-op decision, {@code overwriteByRowFilter}
 * with Iceberg's validations, lineage, commit). The Flink job around it is left out: 1,000 runs of
 * ≈ 1.3 s fixed cost each would take over 20 minutes and measure the MiniCluster, not the commit.
 */
final class CommitLoop {
  static final LocalDate FIRST_DAY = LocalDate.of(2025, 1, 1);

  private final Catalog catalog;
  private final CatalogConfig config;
  private final CommitOptions options;
  private final Clock clock;
  private final PrintStream log;
  private final Map<LocalDate, ContentHash> current = new HashMap<>();
  private double expireSeconds;
  private int expiries;

  CommitLoop(
      Catalog catalog, CatalogConfig config, CommitOptions options, Clock clock, PrintStream log) {
    this.catalog = catalog;
    this.config = config;
    this.options = options;
    this.clock = clock;
    this.log = log;
  }

  /** Creates {@code name}, fills every day with one file and runs {@code commits} overwrites. */
  List<CommitRecord> run(String name, int commits) {
    Table table = create(name);
    prefill(table);
    List<CommitRecord> records = new ArrayList<>();
    long nextId = (long) options.partitions() * options.rowsPerCommit();
    for (int k = 1; k <= commits; k++) {
      LocalDate day = FIRST_DAY.plusDays((k - 1) % options.partitions());
      records.add(commitOnce(name, k, day, nextId));
      nextId += options.rowsPerCommit();
      if (options.retention() && k % options.expireEvery() == 0) {
        expire(name);
      }
      if (k % 100 == 0) {
        log.printf(
            Locale.ROOT,
            "[%s] %d commits, last %.1f ms, %d snapshots%n",
            name,
            k,
            records.get(k - 1).millis(),
            records.get(k - 1).snapshots());
      }
    }
    verify(name);
    return records;
  }

  /** Seconds spent in expiry (outside the commit latencies) and how many times it ran. */
  double expireSeconds() {
    return expireSeconds;
  }

  int expiries() {
    return expiries;
  }

  private CommitRecord commitOnce(String name, int k, LocalDate day, long firstId) {
    Table table = Catalogs.loadTable(catalog, name);
    Snapshot start = table.currentSnapshot();
    ContentHash hash = ContentHash.empty();
    DataFile file = writeDay(table, day, firstId, options.rowsPerCommit(), hash);
    Scope scope = Scope.of(SliceResolver.resolve(name, table, "order_date", day.toString()));
    // How the committer will find the slice's current content (read here, outside the timing).
    String method = SliceContent.current(table, scope).method();
    Lineage lineage =
        new Lineage(
            "bench-commits-" + day,
            "bench-commit-" + k,
            "bench_commits",
            WriteMode.OVERWRITE.text(),
            scope.label(),
            "bench",
            0,
            null,
            Map.of(),
            null);
    CommitPlan plan =
        new CommitPlan(
            config,
            name,
            scope,
            WriteMode.OVERWRITE,
            false,
            lineage,
            start == null ? null : start.snapshotId(),
            table.schema().schemaId(),
            List.of(),
            RunOptions.defaults());
    long t0 = System.nanoTime();
    CommitOutcome outcome =
        new SliceCommitter(catalog, plan)
            .commit(new ArrayList<>(List.of(file)), hash, new CheckStats(), new DuplicateKeys());
    double millis = (System.nanoTime() - t0) / 1e6;
    if (outcome.status() != CommitOutcome.Status.COMMITTED || outcome.rows() != hash.rows()) {
      throw new IllegalStateException(
          "Wrong result of commit " + k + " of " + name + ": " + outcome);
    }
    current.put(day, hash);
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    if (!Long.valueOf(snapshot.snapshotId()).equals(outcome.snapshotId())) {
      throw new IllegalStateException(
          "Wrong result of commit " + k + " of " + name + ": the head is not its snapshot");
    }
    String total = snapshot.summary().get("total-records");
    long expected = (long) options.partitions() * options.rowsPerCommit();
    if (!String.valueOf(expected).equals(total)) {
      throw new IllegalStateException(
          "Wrong result of commit " + k + ": total-records " + total + ", expected " + expected);
    }
    return new CommitRecord(
        k,
        millis,
        length(table, ((HasTableOperations) table).operations().current().metadataFileLocation()),
        length(table, snapshot.manifestListLocation()),
        addedManifestBytes(table, snapshot),
        sizeOf(table.snapshots()),
        method);
  }

  private void expire(String name) {
    long t0 = System.nanoTime();
    Expire.of(Catalogs.loadTable(catalog, name), name).clock(clock).commit();
    expireSeconds += (System.nanoTime() - t0) / 1e9;
    expiries++;
  }

  /** The whole table must hold exactly the last content committed for every day. */
  private void verify(String name) {
    ContentHash expected = ContentHash.empty();
    current.values().forEach(expected::merge);
    ContentHash actual = TableContent.hash(Catalogs.loadTable(catalog, name));
    if (!actual.equals(expected)) {
      throw new IllegalStateException(
          "Wrong content in " + name + " after the commits: " + actual + ", expected " + expected);
    }
  }

  private Table create(String name) {
    TableIdentifier id = TableIdentifier.parse(name);
    if (!((SupportsNamespaces) catalog).namespaceExists(id.namespace())) {
      ((SupportsNamespaces) catalog).createNamespace(id.namespace());
    }
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.FORMAT_VERSION, "2");
    props.put(TableProperties.PARQUET_COMPRESSION, "zstd");
    if (options.retention()) {
      props.put(FloeTableProperties.RETENTION_KEEP_LAST, String.valueOf(options.keepLast()));
    }
    PartitionSpec byDay =
        PartitionSpec.builderFor(BenchTables.ORDERS).identity("order_date").build();
    return catalog.createTable(id, BenchTables.ORDERS, byDay, props);
  }

  /** One file per day, appended in one commit: the 365-partition table the overwrites start on. */
  private void prefill(Table table) {
    current.clear();
    AppendFiles append = table.newAppend();
    for (int d = 0; d < options.partitions(); d++) {
      LocalDate day = FIRST_DAY.plusDays(d);
      ContentHash hash = ContentHash.empty();
      append.appendFile(
          writeDay(table, day, (long) d * options.rowsPerCommit(), options.rowsPerCommit(), hash));
      current.put(day, hash);
    }
    append.commit();
  }

  /** Writes rows {@code [firstId, firstId + rows)} of {@code day} as one file; hashes them. */
  private static DataFile writeDay(
      Table table, LocalDate day, long firstId, int rows, ContentHash hash) {
    GenericRecord record = GenericRecord.create(table.schema());
    record.setField("order_date", day);
    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
    partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(record));
    RecordHasher hasher = new RecordHasher(table.schema());
    DataWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .writerProperties(table.properties())
            .build()
            .newDataWriter(
                OutputFileFactory.builderFor(table, 0, firstId)
                    .format(FileFormat.PARQUET)
                    .build()
                    .newOutputFile(table.spec(), partition),
                table.spec(),
                partition);
    try (writer) {
      for (long i = firstId; i < firstId + rows; i++) {
        StagingData.fill(record, i, day);
        writer.write(record);
        hasher.add(record, hash);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write a file of " + day, e);
    }
    return writer.toDataFile();
  }

  private static long addedManifestBytes(Table table, Snapshot snapshot) {
    long bytes = 0;
    for (ManifestFile manifest : snapshot.allManifests(table.io())) {
      if (Long.valueOf(snapshot.snapshotId()).equals(manifest.snapshotId())) {
        bytes += manifest.length();
      }
    }
    return bytes;
  }

  private static long length(Table table, String location) {
    return table.io().newInputFile(location).getLength();
  }

  private static int sizeOf(Iterable<Snapshot> snapshots) {
    int n = 0;
    for (Snapshot ignored : snapshots) {
      n++;
    }
    return n;
  }
}
