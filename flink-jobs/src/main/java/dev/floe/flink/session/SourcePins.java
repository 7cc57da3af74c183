package dev.floe.flink.session;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
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
 * receives them; a query hint that sets it still wins.
 */
public final class SourcePins {
  static final String SNAPSHOT_ID = "snapshot-id";

  private final Map<String, Long> pinned = new ConcurrentHashMap<>();

  /**
   * The snapshot each of {@code tables} was pinned to, by {@code namespace.table}; a table that had
   * no snapshot when it was planned (it reads as empty) or that the planner never loaded is absent.
   */
  public Map<String, Long> snapshotsOf(Iterable<String> tables) {
    Map<String, Long> snapshots = new TreeMap<>();
    for (String table : tables) {
      Long snapshot = pinned.get(table);
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

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
