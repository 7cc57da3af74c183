package dev.floe.catalog.spec;

import java.util.List;
import java.util.Objects;

/**
 * One change {@code floe tables apply} makes to the catalog, as plain data: the CLI prints {@link
 * #describe()} as text, or {@link #kind()} plus the record components as JSON. Types are in spec
 * spelling ({@link ColumnTypes#format}).
 */
public sealed interface TableChange {

  /** The table the change is for, {@code namespace.table}. */
  String table();

  /** A stable, kebab-case name of the change, e.g. {@code add-column}, for scripts. */
  String kind();

  /** One human-readable line, e.g. {@code add column sales.orders.discount decimal(10,2)}. */
  String describe();

  /** Creates the table's namespace, which the catalog does not have yet. */
  record CreateNamespace(String table, String namespace) implements TableChange {
    public String kind() {
      return "create-namespace";
    }

    public String describe() {
      return "create namespace " + namespace;
    }
  }

  /** Creates the table as the spec declares it, with format version {@code formatVersion}. */
  record CreateTable(
      String table, int columns, List<String> partitioning, List<String> key, int formatVersion)
      implements TableChange {
    public CreateTable {
      partitioning = List.copyOf(partitioning);
      key = List.copyOf(key);
    }

    public String kind() {
      return "create-table";
    }

    public String describe() {
      String partitioned =
          partitioning.isEmpty()
              ? "unpartitioned"
              : "partitioned by " + String.join(", ", partitioning);
      String keyText = key.isEmpty() ? "no key" : "key " + String.join(", ", key);
      return String.format(
          "create table %s (%d columns, %s, %s, format v%d)",
          table, columns, partitioned, keyText, formatVersion);
    }
  }

  /** Adds an optional column; existing rows read it as null. */
  record AddColumn(String table, String column, String type) implements TableChange {
    public String kind() {
      return "add-column";
    }

    public String describe() {
      return "add column " + table + "." + column + " " + type;
    }
  }

  /** Widens a column's type (int to long, float to double, a decimal to a larger precision). */
  record WidenColumn(String table, String column, String from, String to) implements TableChange {
    public String kind() {
      return "widen-column";
    }

    public String describe() {
      return "widen " + table + "." + column + " " + from + " -> " + to;
    }
  }

  /** Lets a required column hold nulls. */
  record MakeColumnOptional(String table, String column) implements TableChange {
    public String kind() {
      return "make-column-optional";
    }

    public String describe() {
      return "make " + table + "." + column + " optional";
    }
  }

  /** Sets a column's doc to the spec's. */
  record SetColumnDoc(String table, String column, String doc) implements TableChange {
    public String kind() {
      return "set-column-doc";
    }

    public String describe() {
      return "set doc of " + table + "." + column + " to \"" + doc + "\"";
    }
  }

  /** Replaces the identifier (key) columns; an empty list removes the key. */
  record ChangeKey(String table, List<String> from, List<String> to) implements TableChange {
    public ChangeKey {
      from = List.copyOf(from);
      to = List.copyOf(to);
    }

    public String kind() {
      return "change-key";
    }

    public String describe() {
      return "change key of " + table + " " + from + " -> " + to;
    }
  }

  /** Changes the partition fields new data is written with; existing files keep their layout. */
  record Repartition(String table, List<String> from, List<String> to) implements TableChange {
    public Repartition {
      from = List.copyOf(from);
      to = List.copyOf(to);
    }

    public String kind() {
      return "repartition";
    }

    public String describe() {
      return "repartition " + table + " " + from + " -> " + to;
    }
  }

  /** Drops a column that the spec no longer declares, and with it the column's data. */
  record DropColumn(String table, String column, String type) implements TableChange {
    public String kind() {
      return "drop-column";
    }

    public String describe() {
      return "drop column " + table + "." + column + " " + type;
    }
  }

  /** Sets a table property the spec declares; {@code previous} is null when it was not set. */
  record SetProperty(String table, String name, String value, String previous)
      implements TableChange {
    public SetProperty {
      Objects.requireNonNull(value, "value");
    }

    public String kind() {
      return "set-property";
    }

    public String describe() {
      String was = previous == null ? "" : " (was " + previous + ")";
      return "set property " + table + " " + name + "=" + value + was;
    }
  }

  /**
   * Removes a property Floe manages ({@code floe.maintain.*}, {@code floe.retention.*}) that the
   * spec no longer declares, so the table stops carrying a policy the spec dropped.
   */
  record RemoveProperty(String table, String name, String previous) implements TableChange {
    public RemoveProperty {
      Objects.requireNonNull(previous, "previous");
    }

    public String kind() {
      return "remove-property";
    }

    public String describe() {
      return "remove property " + table + " " + name + " (was " + previous + ")";
    }
  }
}
