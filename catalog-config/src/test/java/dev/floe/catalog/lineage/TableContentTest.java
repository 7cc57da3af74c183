package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Hashes real Parquet rows of a real table and compares with hashing the records directly. */
class TableContentTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(4, "order_date", Types.DateType.get()),
          Types.NestedField.optional(5, "created_at", Types.TimestampType.withoutZone()));
  private static final LocalDate OCT_3 = LocalDate.of(2026, 10, 3);
  private static final LocalDate OCT_4 = LocalDate.of(2026, 10, 4);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table =
        catalog.create(
            "sales.orders",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("order_date").build());
  }

  @Test
  void anEmptyTableHashesToTheEmptyHash() {
    assertThat(TableContent.hash(table)).isEqualTo(ContentHash.empty());
  }

  @Test
  void hashingTheTableEqualsHashingTheRowsWritten() {
    Record a = order(1, "ann", "70.00", OCT_3);
    Record b = order(2, null, null, OCT_3);
    Record c = order(3, "", "0.00", OCT_4);
    TableRows.append(table, a, b);
    TableRows.append(table, c);

    ContentHash scanned = TableContent.hash(table);

    assertThat(scanned).isEqualTo(hash(c, b, a));
    assertThat(scanned.rows()).isEqualTo(3);
  }

  @Test
  void aFilterRestrictsTheHashToTheMatchingRows() {
    Record a = order(1, "ann", "70.00", OCT_3);
    Record b = order(2, "bob", "12.50", OCT_3);
    Record c = order(3, "cy", "1.00", OCT_4);
    TableRows.append(table, a, b);
    TableRows.append(table, c);

    ContentHash oct3 = TableContent.hash(table, Expressions.equal("order_date", OCT_3.toString()));
    ContentHash big =
        TableContent.hash(table, Expressions.greaterThan("amount", new BigDecimal("20.00")));

    assertThat(oct3).isEqualTo(hash(a, b));
    // Not a partition column: the rows themselves are filtered, not just the files.
    assertThat(big).isEqualTo(hash(a));
  }

  @Test
  void theHashDoesNotDependOnHowRowsAreSplitIntoFiles() {
    Record a = order(1, "ann", "70.00", OCT_3);
    Record b = order(2, "bob", "12.50", OCT_3);
    TableRows.append(table, a);
    TableRows.append(table, b);
    ContentHash twoFiles = TableContent.hash(table);

    table.newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();
    TableRows.append(table, b, a);

    assertThat(TableContent.hash(table)).isEqualTo(twoFiles);
  }

  @Test
  void aSchemaChangeNotYetFollowedByACommitIsHashedWithTheCurrentSchemaOnBothReadPaths() {
    TableRows.append(table, order(1, "ann", "70.00", OCT_3), order(2, "bob", null, OCT_3));
    Expression oct3 = Expressions.equal("order_date", (int) OCT_3.toEpochDay());
    // An ALTER makes no snapshot: the current snapshot still has the old schema.
    table.updateSchema().deleteColumn("customer").commit();
    table.updateSchema().addColumn("channel", Types.StringType.get()).commit();
    table.refresh();
    RecordHasher current = new RecordHasher(table.schema());
    ContentHash expected = ContentHash.empty();
    for (long id : new long[] {1, 2}) {
      Record row = org.apache.iceberg.data.GenericRecord.create(table.schema());
      row.setField("order_id", id);
      row.setField("amount", id == 1 ? new BigDecimal("70.00") : null);
      row.setField("order_date", OCT_3);
      row.setField("created_at", OCT_3.atTime(12, 30, 15, 123_456_000));
      current.add(row, expected);
    }
    List<FileScanTask> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(oct3).planFiles()) {
      tasks.forEach(files::add);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    assertThat(TableContent.hash(table, oct3)).isEqualTo(expected);
    assertThat(TableContent.hashWholeFiles(table, files)).isEqualTo(expected);
  }

  @Test
  void aFixedIdentityPartitionIsHashedAsTheBytesItHoldsOnBothReadPaths() {
    // Iceberg's converter leaves a fixed partition value as the manifest's ByteBuffer.
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "fx", Types.FixedType.ofLength(3)));
    Table fixed =
        catalog.create(
            "sales.fixed", schema, PartitionSpec.builderFor(schema).identity("fx").build());
    Record row = org.apache.iceberg.data.GenericRecord.create(schema);
    row.setField("id", 1L);
    row.setField("fx", new byte[] {1, 2, 3});
    TableRows.append(fixed, row);
    ContentHash expected = ContentHash.empty();
    new RecordHasher(schema).add(row, expected);
    List<FileScanTask> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = fixed.newScan().planFiles()) {
      tasks.forEach(files::add);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    assertThat(TableContent.hash(fixed)).isEqualTo(expected);
    assertThat(TableContent.hashWholeFiles(fixed, files)).isEqualTo(expected);
  }

  private static ContentHash hash(Record... records) {
    RecordHasher hasher = new RecordHasher(SCHEMA);
    ContentHash hash = ContentHash.empty();
    for (Record record : records) {
      hasher.add(record, hash);
    }
    return hash;
  }

  private Record order(long id, String customer, String amount, LocalDate date) {
    Map<String, Object> values = new HashMap<>();
    values.put("order_id", id);
    values.put("customer", customer);
    values.put("amount", amount == null ? null : new BigDecimal(amount));
    values.put("order_date", date);
    values.put("created_at", date.atTime(12, 30, 15, 123_456_000));
    return TableRows.row(table, values);
  }
}
