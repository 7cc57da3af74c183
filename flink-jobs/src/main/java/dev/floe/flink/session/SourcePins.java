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
 * receives them.
 *
 * <p>A run reads each source at that snapshot only: its lineage records it, and late-data checks
 * count the rows that reached the source after it, which a rerun then loads. So a read option that
 * picks another snapshot (a query hint, or a table property of that name) is refused: a {@code
 * snapshot-id} other than the pin (a rerun would read the same old snapshot again, and late rows
 * would never be loaded), and {@code tag}, {@code branch}, {@code as-of-timestamp} or an
 * incremental range. Beside the pin, Iceberg applied {@code snapshot-id} first and silently ignored
 * a {@code tag} or {@code branch}: the run read the current snapshot.
 */
public final class SourcePins {
  static final String SNAPSHOT_ID = "snapshot-id";

  private static final String OTHER_SNAPSHOT =
      "at its current snapshot, which its lineage records; read a tag, branch or time with floe"
          + " sql";
  private static final String INCREMENT =
      "whole at its current snapshot, not what changed between two snapshots";

  /**
   * Iceberg's read options that pick the snapshot a scan reads other than by its id, or read what
   * changed between two snapshots, with how a run reads a source instead.
   */
  private static final List<Map.Entry<String, String>> REFUSED_OPTIONS =
      List.of(
          Map.entry("tag", OTHER_SNAPSHOT),
          Map.entry("branch", OTHER_SNAPSHOT),
          Map.entry("as-of-timestamp", OTHER_SNAPSHOT),
          Map.entry("start-snapshot-id", INCREMENT),
          Map.entry("end-snapshot-id", INCREMENT),
          Map.entry("start-tag", INCREMENT),
          Map.entry("end-tag", INCREMENT),
          Map.entry("start-snapshot-timestamp", INCREMENT));

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
    // A table property of that name is checked against the pin when the source is created.
    if (snapshot == null || table.getOptions().containsKey(SNAPSHOT_ID)) {
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
    Long pin = pinned.get(name);
    String snapshotId = options.get(SNAPSHOT_ID);
    if (snapshotId != null && (pin == null || !pin.equals(snapshotIdOrNull(snapshotId)))) {
      throw InvalidInputException.of(
          "it reads %s with read option 'snapshot-id'='%s', but a run reads each source at its"
              + " current snapshot (%s), which its lineage records and late-data checks start"
              + " from; read an older snapshot with floe sql",
          name, snapshotId, pin == null ? "none: the table is empty" : pin);
    }
    for (Map.Entry<String, String> refused : REFUSED_OPTIONS) {
      String option = refused.getKey();
      if (options.containsKey(option)) {
        throw InvalidInputException.of(
            "it reads %s with read option '%s'='%s' (a query hint or a table property), but a"
                + " run reads each source %s",
            name, option, options.get(option), refused.getValue());
      }
    }
  }

  private static Long snapshotIdOrNull(String value) {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Calls {@code method} on {@code target} for a proxy, throwing what the method threw. */
  static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
