package dev.floe.flink.session;

import dev.floe.flink.write.ValueGuard;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.TableProperties;

/**
 * Puts {@link ValueGuard}'s checks in front of every Iceberg sink a SQL statement writes through
 * ({@code floe sql} INSERTs, CREATE TABLE ... AS): Iceberg's own Flink sink stores a string that is
 * not UTF-8 and an ORC timestamp of the second before 1970 as they come, which Floe's writers
 * refuse (DESIGN rule 10).
 */
final class GuardedSinks {

  private GuardedSinks() {}

  /** {@code catalog}, whose table factory's sinks check every row before Iceberg writes it. */
  static Catalog wrap(Catalog catalog) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = SourcePins.invoke(catalog, method, args);
          if (method.getName().equals("getFactory")
              && result instanceof Optional<?> factory
              && factory.orElse(null) instanceof DynamicTableSinkFactory sinks) {
            return Optional.of(guarding(sinks, catalog));
          }
          return result;
        };
    return (Catalog)
        Proxy.newProxyInstance(
            GuardedSinks.class.getClassLoader(), new Class<?>[] {Catalog.class}, handler);
  }

  private static Object guarding(DynamicTableSinkFactory factory, Catalog catalog) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = SourcePins.invoke(factory, method, args);
          if (method.getName().equals("createDynamicTableSink")
              && args != null
              && args.length == 1
              && args[0] instanceof DynamicTableFactory.Context context
              && result instanceof DynamicTableSink sink) {
            ObjectIdentifier id = context.getObjectIdentifier();
            RowType rowType =
                (RowType)
                    context
                        .getCatalogTable()
                        .getResolvedSchema()
                        .toPhysicalRowDataType()
                        .getLogicalType();
            boolean orc = "orc".equals(format(context, catalog).toLowerCase(Locale.ROOT));
            Optional<ValueGuard> guard = ValueGuard.of(id.asSummaryString(), rowType, orc);
            return guard.isPresent() ? guarded(sink, guard.get()) : sink;
          }
          return result;
        };
    return Proxy.newProxyInstance(
        GuardedSinks.class.getClassLoader(), interfacesOf(factory.getClass()), handler);
  }

  /**
   * The file format Iceberg's sink writes, found as it finds it ({@code FlinkWriteConf}): a {@code
   * write-format} hint or table option, then the session's {@code write-format}, then the table's
   * own {@code write.format.default} (as the catalog holds it: a hint of that name changes nothing
   * Iceberg writes).
   */
  private static String format(DynamicTableFactory.Context context, Catalog catalog) {
    Map<String, String> options = context.getCatalogTable().getOptions();
    String hinted = options.get(WRITE_FORMAT.key());
    if (hinted != null) {
      return hinted;
    }
    Optional<String> session = context.getConfiguration().getOptional(WRITE_FORMAT);
    if (session.isPresent()) {
      return session.get();
    }
    ObjectIdentifier id = context.getObjectIdentifier();
    Map<String, String> properties;
    try {
      properties =
          catalog.getTable(new ObjectPath(id.getDatabaseName(), id.getObjectName())).getOptions();
    } catch (TableNotExistException e) {
      properties = options;
    }
    return properties.getOrDefault(
        TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT);
  }

  private static final ConfigOption<String> WRITE_FORMAT =
      ConfigOptions.key("write-format").stringType().noDefaultValue();

  private static DynamicTableSink guarded(DynamicTableSink sink, ValueGuard guard) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = SourcePins.invoke(sink, method, args);
          if (method.getName().equals("getSinkRuntimeProvider")
              && result instanceof DataStreamSinkProvider provider) {
            return new Checked(provider, guard);
          }
          if (method.getName().equals("copy") && result instanceof DynamicTableSink copy) {
            return guarded(copy, guard);
          }
          return result;
        };
    return (DynamicTableSink)
        Proxy.newProxyInstance(
            GuardedSinks.class.getClassLoader(), interfacesOf(sink.getClass()), handler);
  }

  /** Iceberg's provider, fed the rows after the guard checked them. */
  private record Checked(DataStreamSinkProvider provider, ValueGuard guard)
      implements DataStreamSinkProvider {
    @Override
    public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
      Check check = new Check(guard);
      return provider.consumeDataStream(
          context,
          rows.map(check, rows.getType())
              .name("Floe value check")
              .setParallelism(rows.getParallelism()));
    }

    @Override
    public Optional<Integer> getParallelism() {
      return provider.getParallelism();
    }
  }

  private record Check(ValueGuard guard) implements MapFunction<RowData, RowData> {
    @Override
    public RowData map(RowData row) {
      guard.check(row);
      return row;
    }
  }

  private static Class<?>[] interfacesOf(Class<?> type) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      interfaces.addAll(java.util.List.of(c.getInterfaces()));
    }
    return interfaces.toArray(Class<?>[]::new);
  }
}
