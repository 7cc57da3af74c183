package dev.floe.flink.cli;

import dev.floe.catalog.testing.TableRows;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Rows of the example tables (examples/tables), written through Iceberg for tests that drive the
 * CLI.
 */
final class ExampleRows {

  private ExampleRows() {}

  /** A row of staging_orders or fact_orders. */
  static Record order(Table table, long id, long customer, String amount, String day) {
    return TableRows.row(
        table,
        Map.of(
            "order_id",
            id,
            "customer_id",
            customer,
            "amount",
            new BigDecimal(amount).setScale(2),
            "order_date",
            LocalDate.parse(day)));
  }

  /** A row of staging_customer or dim_customer. */
  static Record customer(Table table, long id, String tier, OffsetDateTime at) {
    return TableRows.row(table, Map.of("customer_id", id, "tier", tier, "updated_at", at));
  }

  /** Replaces every row of {@code table} with {@code rows} in one snapshot (none: emptied). */
  static void replace(Table table, List<Record> rows) {
    replace(table, Expressions.alwaysTrue(), rows);
  }

  /** Replaces the rows {@code filter} selects with {@code rows} in one snapshot. */
  static void replace(Table table, Expression filter, List<Record> rows) {
    var overwrite = table.newOverwrite().overwriteByRowFilter(filter);
    if (!rows.isEmpty()) {
      overwrite.addFile(TableRows.write(table, rows.toArray(Record[]::new)));
    }
    overwrite.commit();
  }

  /** The rows of one order_date. */
  static Expression day(String day) {
    return Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay());
  }
}
