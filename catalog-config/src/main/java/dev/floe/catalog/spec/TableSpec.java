package dev.floe.catalog.spec;

import dev.floe.catalog.config.Catalogs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * The declared shape of one Iceberg table, read from a table spec file (see {@link
 * TableSpecParser}). {@code floe tables apply} makes the catalog match it.
 *
 * @param table the table name, {@code namespace.table}
 * @param columns the top-level columns, in declaration order
 * @param partitioning the partition fields, in order; empty for an unpartitioned table
 * @param key the identifier (key) columns; each one is a required column of {@code columns}
 * @param lateData the late-data policy, when the spec sets one
 * @param retention the snapshot retention, when the spec sets one
 * @param maintenance the maintenance policy's {@code maintenance:} keys, when the spec sets them
 *     (its retention is {@code retention})
 * @param properties table properties the spec manages; other properties of the table are left alone
 * @param source where the spec came from, e.g. {@code tables/fact_orders.yaml}, for messages
 */
public record TableSpec(
    String table,
    List<ColumnSpec> columns,
    List<PartitionFieldSpec> partitioning,
    List<String> key,
    Optional<LateDataSpec> lateData,
    Optional<RetentionSpec> retention,
    Optional<MaintenancePolicy> maintenance,
    Map<String, String> properties,
    String source) {

  /** A spec without a maintenance policy. */
  public TableSpec(
      String table,
      List<ColumnSpec> columns,
      List<PartitionFieldSpec> partitioning,
      List<String> key,
      Optional<LateDataSpec> lateData,
      Optional<RetentionSpec> retention,
      Map<String, String> properties,
      String source) {
    this(
        table,
        columns,
        partitioning,
        key,
        lateData,
        retention,
        Optional.empty(),
        properties,
        source);
  }

  public TableSpec {
    Objects.requireNonNull(maintenance, "maintenance");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(lateData, "lateData");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(source, "source");
    columns = List.copyOf(columns);
    partitioning = List.copyOf(partitioning);
    key = List.copyOf(key);
    // Keeps file order, so plans list properties as the spec does.
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  public TableIdentifier identifier() {
    return Catalogs.identifier(table);
  }

  public Optional<ColumnSpec> column(String name) {
    return columns.stream().filter(column -> column.name().equals(name)).findFirst();
  }

  /**
   * The Iceberg schema of a new table: field ids 1..n in declaration order, and the key as its
   * identifier fields.
   *
   * @throws IllegalArgumentException when the key names a column that is not a required column
   */
  public Schema schema() {
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      fields.add(columns.get(i).toField(i + 1));
    }
    Set<Integer> identifierFieldIds = new HashSet<>();
    for (String name : key) {
      int index = columns.indexOf(column(name).orElse(null));
      if (index < 0) {
        throw new IllegalArgumentException("Cannot use key column " + name + ": not a column");
      }
      identifierFieldIds.add(index + 1);
    }
    return new Schema(fields, identifierFieldIds);
  }

  /** The partition spec of a new table, bound to {@link #schema()}. */
  public PartitionSpec partitionSpec() {
    return partitionSpec(schema());
  }

  /**
   * The partition spec bound to {@code schema}, which must hold every source column.
   *
   * @throws IllegalArgumentException when a source column is missing, a transform does not apply to
   *     its column, or two fields are redundant (e.g. {@code day(ts)} and {@code hour(ts)})
   */
  public PartitionSpec partitionSpec(Schema schema) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    partitioning.forEach(field -> field.addTo(builder));
    return builder.build();
  }

  /** The partition fields as the spec spells them, e.g. {@code [order_date, bucket(16, id)]}. */
  public List<String> describePartitioning() {
    return partitioning.stream().map(PartitionFieldSpec::describe).toList();
  }
}
