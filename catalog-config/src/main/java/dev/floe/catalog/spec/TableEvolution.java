package dev.floe.catalog.spec;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;

/**
 * Stages a {@link TablePlan} for an existing table into one Iceberg transaction, through
 * UpdateSchema / UpdatePartitionSpec / UpdateProperties so field ids are kept. Staging validates
 * every change but persists nothing: only {@code commitTransaction()} does.
 */
final class TableEvolution {
  private final Transaction transaction;
  private final TableSpec spec;
  private final List<TableChange> changes;

  private TableEvolution(Transaction transaction, TableSpec spec, TablePlan plan) {
    this.transaction = transaction;
    this.spec = spec;
    this.changes = plan.changes();
  }

  /**
   * Stages the plan's changes, in this order: column additions and updates and the key (one schema
   * update, so new columns can be partitioned on); partitioning; column drops (after the partition
   * fields that used them are gone); properties.
   */
  static void stage(Transaction transaction, TableSpec spec, TablePlan plan) {
    TableEvolution evolution = new TableEvolution(transaction, spec, plan);
    evolution.evolveColumns();
    evolution.repartition();
    evolution.dropColumns();
    evolution.setProperties();
  }

  private void evolveColumns() {
    List<TableChange> columnChanges =
        changes.stream()
            .filter(
                change ->
                    change instanceof TableChange.AddColumn
                        || change instanceof TableChange.WidenColumn
                        || change instanceof TableChange.MakeColumnOptional
                        || change instanceof TableChange.SetColumnDoc
                        || change instanceof TableChange.ChangeKey)
            .toList();
    if (columnChanges.isEmpty()) {
      return;
    }
    UpdateSchema update = transaction.updateSchema();
    for (TableChange change : columnChanges) {
      if (change instanceof TableChange.AddColumn add) {
        ColumnSpec column = column(add.column());
        update.addColumn(column.name(), column.type(), column.doc().orElse(null));
      } else if (change instanceof TableChange.WidenColumn widen) {
        update.updateColumn(widen.column(), column(widen.column()).type());
      } else if (change instanceof TableChange.MakeColumnOptional optional) {
        update.makeColumnOptional(optional.column());
      } else if (change instanceof TableChange.SetColumnDoc doc) {
        update.updateColumnDoc(doc.column(), doc.doc());
      } else if (change instanceof TableChange.ChangeKey) {
        update.setIdentifierFields(spec.key());
      }
    }
    update.commit();
  }

  /**
   * Keeps the longest common prefix of current and desired fields, removes the rest and adds the
   * desired remainder, so the result has exactly the spec's fields in the spec's order.
   */
  private void repartition() {
    if (changes.stream().noneMatch(change -> change instanceof TableChange.Repartition)) {
      return;
    }
    PartitionSpec current = transaction.table().spec();
    List<PartitionField> currentFields = TablePartitioning.activeFields(current);
    List<PartitionFieldSpec> desired = spec.partitioning();
    int kept = 0;
    while (kept < currentFields.size()
        && kept < desired.size()
        && TablePartitioning.describe(currentFields.get(kept), current)
            .equals(desired.get(kept).describe())) {
      kept++;
    }
    List<PartitionField> removed = currentFields.subList(kept, currentFields.size());
    List<PartitionFieldSpec> added = desired.subList(kept, desired.size());
    Set<String> removedNames =
        removed.stream()
            .map(field -> TablePartitioning.describe(field, current))
            .collect(Collectors.toSet());

    UpdatePartitionSpec update = transaction.updateSpec();
    removed.forEach(field -> update.removeField(field.name()));
    // Re-adding a field removed in the same update would restore it at its old position, so a
    // reordering removes in one update and adds in the next.
    if (added.stream().anyMatch(field -> removedNames.contains(field.describe()))) {
      update.commit();
      UpdatePartitionSpec additions = transaction.updateSpec();
      added.forEach(field -> additions.addField(field.term()));
      additions.commit();
    } else {
      added.forEach(field -> update.addField(field.term()));
      update.commit();
    }
  }

  private void dropColumns() {
    List<TableChange.DropColumn> drops =
        changes.stream()
            .filter(TableChange.DropColumn.class::isInstance)
            .map(TableChange.DropColumn.class::cast)
            .toList();
    if (drops.isEmpty()) {
      return;
    }
    UpdateSchema update = transaction.updateSchema();
    drops.forEach(drop -> update.deleteColumn(drop.column()));
    update.commit();
  }

  private void setProperties() {
    List<TableChange.SetProperty> properties =
        changes.stream()
            .filter(TableChange.SetProperty.class::isInstance)
            .map(TableChange.SetProperty.class::cast)
            .toList();
    List<TableChange.RemoveProperty> removals =
        changes.stream()
            .filter(TableChange.RemoveProperty.class::isInstance)
            .map(TableChange.RemoveProperty.class::cast)
            .toList();
    if (properties.isEmpty() && removals.isEmpty()) {
      return;
    }
    UpdateProperties update = transaction.updateProperties();
    properties.forEach(property -> update.set(property.name(), property.value()));
    removals.forEach(property -> update.remove(property.name()));
    update.commit();
  }

  private ColumnSpec column(String name) {
    return spec.column(name)
        .orElseThrow(() -> new IllegalStateException("Cannot find planned column: " + name));
  }
}
