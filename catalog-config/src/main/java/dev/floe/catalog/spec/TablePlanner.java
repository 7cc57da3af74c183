package dev.floe.catalog.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;

/**
 * Compares a spec with its existing table and lists the changes that make the table match, in the
 * order {@link TableEvolution} applies them, plus the differences that must not be applied. Reads
 * only: planning never changes the catalog.
 */
final class TablePlanner {
  /**
   * Properties Iceberg writes into every new table: a spec that stops setting one gets the value a
   * new table would have, not Iceberg's older fallback for an absent key.
   */
  private static final Map<String, String> CREATION_VALUES =
      Map.of(
          TableProperties.PARQUET_COMPRESSION,
          TableProperties.PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0);

  private final TableSpec spec;
  private final Table table;
  private final ApplyOptions options;
  private final String name;
  private final List<TableChange> changes = new ArrayList<>();
  private final List<RefusedChange> refusals = new ArrayList<>();

  private TablePlanner(TableSpec spec, Table table, ApplyOptions options) {
    this.spec = spec;
    this.table = table;
    this.options = options;
    this.name = spec.table();
  }

  static TablePlan plan(TableSpec spec, Table table, ApplyOptions options) {
    TablePlanner planner = new TablePlanner(spec, table, options);
    planner.planColumns();
    planner.planKey();
    planner.planPartitioning();
    planner.planDrops();
    planner.planProperties();
    return new TablePlan(planner.name, planner.changes, planner.refusals);
  }

  private void planColumns() {
    Schema schema = table.schema();
    for (ColumnSpec column : spec.columns()) {
      // Top-level lookup by exact name: a spec column never matches a nested field.
      Types.NestedField field = schema.asStruct().field(column.name());
      if (field == null) {
        planAdd(column);
      } else {
        planUpdate(column, field);
      }
    }
  }

  private void planAdd(ColumnSpec column) {
    String type = ColumnTypes.format(column.type());
    if (column.required()) {
      refuse(
          column.name(),
          null,
          "Cannot add required column %s %s: existing rows have no value for it"
              + " (declare it without required: true)",
          qualified(column.name()),
          type);
    } else {
      changes.add(new TableChange.AddColumn(name, column.name(), type));
    }
  }

  private void planUpdate(ColumnSpec column, Types.NestedField field) {
    if (!field.type().equals(column.type())) {
      String from = ColumnTypes.format(field.type());
      String to = ColumnTypes.format(column.type());
      if (TypeWidening.isWidening(field.type(), column.type())) {
        changes.add(new TableChange.WidenColumn(name, column.name(), from, to));
      } else {
        refuse(
            column.name(),
            null,
            "Cannot change type of column %s from %s to %s: existing files could not be read as"
                + " %s (allowed widenings: %s)",
            qualified(column.name()),
            from,
            to,
            to,
            TypeWidening.ALLOWED);
      }
    }
    if (field.isRequired() && !column.required()) {
      changes.add(new TableChange.MakeColumnOptional(name, column.name()));
    } else if (field.isOptional() && column.required()) {
      refuse(
          column.name(),
          null,
          "Cannot make column %s required: existing rows may hold nulls (keep it optional)",
          qualified(column.name()));
    }
    if (column.doc().isPresent() && !column.doc().get().equals(field.doc())) {
      changes.add(new TableChange.SetColumnDoc(name, column.name(), column.doc().get()));
    }
  }

  private void planKey() {
    Schema schema = table.schema();
    Set<String> current = schema.identifierFieldNames();
    if (!current.equals(Set.copyOf(spec.key()))) {
      List<String> from =
          schema.columns().stream().map(Types.NestedField::name).filter(current::contains).toList();
      changes.add(new TableChange.ChangeKey(name, from, spec.key()));
    }
  }

  private void planPartitioning() {
    List<String> current = TablePartitioning.describe(table.spec());
    List<String> desired = spec.describePartitioning();
    if (current.equals(desired)) {
      return;
    }
    long records = recordCount(table);
    if (records == 0 || options.allowRepartition()) {
      changes.add(new TableChange.Repartition(name, current, desired));
    } else {
      String holds =
          records < 0 ? "holds data" : "holds " + records + (records == 1 ? " row" : " rows");
      refuse(
          null,
          TableSpecApplier.ALLOW_REPARTITION,
          "Cannot repartition %s from %s to %s: the table %s, whose files keep the old layout"
              + " (use %s to partition only new data the new way)",
          name,
          current,
          desired,
          holds,
          TableSpecApplier.ALLOW_REPARTITION);
    }
  }

  private void planDrops() {
    for (Types.NestedField field : table.schema().columns()) {
      if (spec.column(field.name()).isPresent()) {
        continue;
      }
      String type = ColumnTypes.format(field.type());
      Optional<String> usedBy = usedBy(field);
      if (usedBy.isPresent()) {
        refuse(
            field.name(),
            null,
            "Cannot drop column %s %s: %s uses it, and Iceberg cannot read the table without it;"
                + " keep the column in the spec",
            qualified(field.name()),
            type,
            usedBy.get());
      } else if (options.allowDropColumns()) {
        changes.add(new TableChange.DropColumn(name, field.name(), type));
      } else {
        refuse(
            field.name(),
            TableSpecApplier.ALLOW_DROP_COLUMNS,
            "Cannot drop %s column %s %s: it is in the table but not in the spec, and dropping it"
                + " deletes its data (use %s to drop it)",
            field.isRequired() ? "required" : "optional",
            qualified(field.name()),
            type,
            TableSpecApplier.ALLOW_DROP_COLUMNS);
      }
    }
  }

  /**
   * What of the table's layout still needs {@code field}: a partition spec whose written files name
   * it in their partition, or the sort order; empty when nothing does.
   */
  private Optional<String> usedBy(Types.NestedField field) {
    // Unwritten, the table has no such files, and the spec's own partitioning cannot name a column
    // the spec does not declare: the apply repartitions before it drops.
    boolean written = table.currentSnapshot() != null || !table.refs().isEmpty();
    for (PartitionSpec partitionSpec : table.specs().values()) {
      if (written
          && partitionSpec.fields().stream().anyMatch(f -> f.sourceId() == field.fieldId())) {
        return Optional.of(
            "partition spec "
                + partitionSpec.specId()
                + " "
                + TablePartitioning.describe(partitionSpec)
                + " (files written with it name it in their partition)");
      }
    }
    if (table.sortOrder().fields().stream().anyMatch(f -> f.sourceId() == field.fieldId())) {
      return Optional.of("the table's sort order");
    }
    return Optional.empty();
  }

  private void planProperties() {
    Map<String, String> current = table.properties();
    // Only the spec's own properties: other tools (compaction, catalogs) may set the rest.
    Map<String, String> declared = FloeTableProperties.of(spec);
    // Properties Floe manages from a spec block, and those the spec's properties set before, are
    // removed when the block (or key) is gone.
    Set<String> setBefore = FloeTableProperties.specPropertyKeys(current);
    new java.util.TreeMap<>(current)
        .forEach(
            (property, previous) -> {
              if ((FloeTableProperties.managedFromSpec(property) || setBefore.contains(property))
                  && !declared.containsKey(property)) {
                String atCreation = CREATION_VALUES.get(property);
                if (atCreation == null) {
                  changes.add(new TableChange.RemoveProperty(name, property, previous));
                } else if (!atCreation.equals(previous)) {
                  // Absent, Iceberg would fall back to an older default than a new table gets.
                  changes.add(new TableChange.SetProperty(name, property, atCreation, previous));
                }
              }
            });
    declared.forEach(
        (property, value) -> {
          String previous = current.get(property);
          if (!Objects.equals(previous, value)) {
            changes.add(new TableChange.SetProperty(name, property, value, previous));
          }
        });
  }

  /**
   * Rows in the snapshot of main or of any other branch or tag (an audit branch holds a run's rows
   * before main does), the most any holds; -1 when one does not say (treated as not empty).
   */
  private static long recordCount(Table table) {
    long most = 0;
    for (SnapshotRef ref : table.refs().values()) {
      Snapshot snapshot = table.snapshot(ref.snapshotId());
      if (snapshot == null) {
        continue;
      }
      String total = snapshot.summary().get(SnapshotSummary.TOTAL_RECORDS_PROP);
      try {
        if (total == null) {
          return -1;
        }
        most = Math.max(most, Long.parseLong(total));
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return most;
  }

  private String qualified(String column) {
    return name + "." + column;
  }

  private void refuse(String column, String allowedBy, String format, Object... args) {
    refusals.add(new RefusedChange(name, column, String.format(format, args), allowedBy));
  }
}
