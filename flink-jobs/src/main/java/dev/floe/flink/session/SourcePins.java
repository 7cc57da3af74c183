package dev.floe.flink.session;

import dev.floe.catalog.error.InvalidInputException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkCatalog;

/**
 * Pins every Iceberg table a query reads to the snapshot that was current when Flink's planner
 * first loaded it, so the job scans exactly the snapshot its lineage records (DESIGN.md rule 6).
 *
 * <p>Without a pin, Iceberg's Flink source picks the table's current snapshot when the job starts
 * scanning, a moment after planning: a source commit landing in between was read but not recorded,
 * so late rows went unreported and the conflict rule compared the wrong source versions. The pin is
 * Iceberg's own {@code snapshot-id} read option, added to the table's options as the planner
 * receives them; a query hint that sets it still wins, and the snapshot it names is the one
 * recorded. Each source is read at one snapshot: a hint that picks the snapshot in any other way
 * ({@code tag}, {@code branch}, {@code as-of-timestamp}, an incremental range) is refused, as is a
 * query that reads one table at two snapshots. Iceberg applies {@code snapshot-id} before those, so
 * a {@code tag} hint beside the pin was silently ignored: the run read the current snapshot.
 */
public final class SourcePins {
  static final String SNAPSHOT_ID = "snapshot-id";

  /** Iceberg's read options that pick the snapshot a scan reads other than by its id. */
  private static final List<String> OTHER_SNAPSHOT_CHOICES =
      List.of(
          "tag",
          "branch",
          "as-of-timestamp",
          "start-snapshot-id",
          "end-snapshot-id",
          "start-tag",
          "end-tag",
          "start-snapshot-timestamp");

  private final Map<String, Long> pinned = new ConcurrentHashMap<>();

  /** The snapshot each source is read at, as its source was created: the pin or a hint's. */
  private final Map<String, Long> read = new ConcurrentHashMap<>();

  /**
   * The snapshot each of {@code tables} is read at, by {@code namespace.table}: the pin, or the
   * snapshot a hint named; a table that had no snapshot when it was planned (it reads as empty) or
   * that the planner never loaded is absent.
   */
  public Map<String, Long> snapshotsOf(Iterable<String> tables) {
    Map<String, Long> snapshots = new TreeMap<>();
    for (String table : tables) {
      Long snapshot = read.getOrDefault(table, pinned.get(table));
      if (snapshot != null) {
        snapshots.put(table, snapshot);
      }
    }
    return snapshots;
  }

  /** {@code flinkCatalog}, with the tables it hands the planner pinned as described above. */
  Catalog wrap(Catalog flinkCatalog) {
    if (!(flinkCatalog instanceof FlinkCatalog iceberg)) {
      return flinkCatalog;
    }
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = invoke(iceberg, method, args);
          if (method.getName().equals("getTable")
              && args != null
              && args.length == 1
              && args[0] instanceof ObjectPath path
              && result instanceof CatalogTable table) {
            return pin(iceberg, path, table);
          }
          if (method.getName().equals("getFactory")
              && result instanceof Optional<?> factory
              && factory.orElse(null) instanceof DynamicTableSourceFactory sources) {
            return Optional.of(checkingReads(sources));
          }
          return result;
        };
    return (Catalog)
        Proxy.newProxyInstance(
            SourcePins.class.getClassLoader(), new Class<?>[] {Catalog.class}, handler);
  }

  private CatalogBaseTable pin(FlinkCatalog iceberg, ObjectPath path, CatalogTable table) {
    if (table.getOptions().containsKey(SNAPSHOT_ID)) {
      return table;
    }
    String name = path.getFullName();
    Long snapshot =
        pinned.computeIfAbsent(
            name,
            n -> {
              // The Iceberg catalog of the Flink catalog caches the table getTable just loaded.
              Snapshot current =
                  iceberg
                      .catalog()
                      .loadTable(TableIdentifier.of(path.getDatabaseName(), path.getObjectName()))
                      .currentSnapshot();
              return current == null ? null : current.snapshotId();
            });
    if (snapshot == null) {
      return table;
    }
    Map<String, String> options = new HashMap<>(table.getOptions());
    options.put(SNAPSHOT_ID, Long.toString(snapshot));
    return table.copy(options);
  }

  /**
   * {@code factory}, checking the options each source is created with: the table's own, the pin and
   * the query's hints, merged.
   */
  private Object checkingReads(DynamicTableSourceFactory factory) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getName().equals("createDynamicTableSource")
              && args != null
              && args.length == 1
              && args[0] instanceof DynamicTableFactory.Context context) {
            checkRead(context.getObjectIdentifier(), context.getCatalogTable().getOptions());
          }
          return invoke(factory, method, args);
        };
    return Proxy.newProxyInstance(
        SourcePins.class.getClassLoader(), factory.getClass().getInterfaces(), handler);
  }

  private void checkRead(ObjectIdentifier id, Map<String, String> options) {
    String name = id.getDatabaseName() + "." + id.getObjectName();
    for (String option : OTHER_SNAPSHOT_CHOICES) {
      if (options.containsKey(option)) {
        throw InvalidInputException.of(
            "it reads %s with read option '%s'='%s', but a run reads each source at one snapshot,"
                + " which its lineage records: name it with 'snapshot-id' (floe snapshots and"
                + " floe tags list a table's snapshots)",
            name, option, options.get(option));
      }
    }
    String snapshotId = options.get(SNAPSHOT_ID);
    if (snapshotId == null) {
      return;
    }
    long snapshot;
    try {
      snapshot = Long.parseLong(snapshotId.strip());
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "it reads %s with read option 'snapshot-id'='%s', which is not a snapshot id",
          name, snapshotId);
    }
    Long before = read.putIfAbsent(name, snapshot);
    if (before != null && before != snapshot) {
      throw InvalidInputException.of(
          "it reads %s at two snapshots, %d and %d, but a run's lineage records one snapshot for"
              + " each source",
          name, before, snapshot);
    }
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
