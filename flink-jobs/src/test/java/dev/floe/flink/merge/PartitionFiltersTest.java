package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The conflict filter covers exactly the partitions a keyed commit touches. */
class PartitionFiltersTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.required(3, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "region", Types.StringType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void identityAndDayPartitionsBecomeExactFilters() {
    Table table =
        catalog.create(
            "s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("region").day("ts").build());
    Record inside = row(table, LocalDate.parse("2026-10-03"), "2026-10-03T23:59:59Z", "eu");
    DataFile file = TableRows.write(table, inside);

    Expression filter = PartitionFilters.touched(table, List.of(file));

    assertThat(matches(table, filter, inside)).isTrue();
    assertThat(matches(table, filter, row(table, null, "2026-10-04T00:00:00Z", "eu"))).isFalse();
    assertThat(matches(table, filter, row(table, null, "2026-10-03T00:00:00Z", "us"))).isFalse();
  }

  @Test
  void monthAndYearPartitionsOfADateCoverTheirWholePeriod() {
    Table byMonth =
        catalog.create("s.m", SCHEMA, PartitionSpec.builderFor(SCHEMA).month("d").build());
    Table byYear =
        catalog.create("s.y", SCHEMA, PartitionSpec.builderFor(SCHEMA).year("d").build());
    Record march = row(byMonth, LocalDate.parse("2026-03-15"), "2026-01-01T00:00:00Z", null);

    Expression month = PartitionFilters.touched(byMonth, List.of(TableRows.write(byMonth, march)));
    Expression year = PartitionFilters.touched(byYear, List.of(TableRows.write(byYear, march)));

    assertThat(matches(byMonth, month, row(byMonth, LocalDate.parse("2026-03-31"), null, null)))
        .isTrue();
    assertThat(matches(byMonth, month, row(byMonth, LocalDate.parse("2026-04-01"), null, null)))
        .isFalse();
    assertThat(matches(byYear, year, row(byYear, LocalDate.parse("2026-12-31"), null, null)))
        .isTrue();
    assertThat(matches(byYear, year, row(byYear, LocalDate.parse("2027-01-01"), null, null)))
        .isFalse();
  }

  @Test
  void anHourPartitionCoversItsHourAndANullIdentityValueOnlyNulls() {
    Table table =
        catalog.create(
            "s.h", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("region").hour("ts").build());
    Record five = row(table, null, "2026-10-03T05:30:00Z", null);

    Expression filter = PartitionFilters.touched(table, List.of(TableRows.write(table, five)));

    assertThat(matches(table, filter, row(table, null, "2026-10-03T05:59:59Z", null))).isTrue();
    assertThat(matches(table, filter, row(table, null, "2026-10-03T06:00:00Z", null))).isFalse();
    assertThat(matches(table, filter, row(table, null, "2026-10-03T05:00:00Z", "eu"))).isFalse();
  }

  @Test
  void truncateAndVoidPartitionsWidenInsteadOfFailingOrNarrowing() {
    Table truncated =
        catalog.create(
            "s.tr", SCHEMA, PartitionSpec.builderFor(SCHEMA).truncate("region", 1).build());
    Table dropped =
        catalog
            .catalog()
            .createTable(
                org.apache.iceberg.catalog.TableIdentifier.of("s", "v1"),
                SCHEMA,
                PartitionSpec.builderFor(SCHEMA).identity("region").build(),
                Map.of("format-version", "1"));
    dropped.updateSpec().removeField("region").commit(); // v1 keeps it as a void transform
    Record eu = row(truncated, null, null, "eu");

    Expression byTruncate =
        PartitionFilters.touched(truncated, List.of(TableRows.write(truncated, eu)));
    Expression byVoid =
        PartitionFilters.touched(
            dropped, List.of(TableRows.write(dropped, row(dropped, null, null, "eu"))));

    assertThat(matches(truncated, byTruncate, row(truncated, null, null, "us"))).isTrue();
    assertThat(matches(dropped, byVoid, row(dropped, null, null, "us"))).isTrue();
  }

  @Test
  void aBucketPartitionWidensToTheWholeScope() {
    Table table =
        catalog.create("s.b", SCHEMA, PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build());
    Record one = row(table, LocalDate.parse("2026-10-03"), "2026-10-03T00:00:00Z", null);

    Expression filter = PartitionFilters.touched(table, List.of(TableRows.write(table, one)));

    one.setField("id", 999_999L);
    assertThat(matches(table, filter, one)).isTrue();
  }

  private static boolean matches(Table table, Expression filter, Record row) {
    return new Evaluator(table.schema().asStruct(), filter)
        .eval(new InternalRecordWrapper(table.schema().asStruct()).wrap(row));
  }

  private static Record row(Table table, LocalDate d, String ts, String region) {
    Record record = TableRows.row(table, Map.of("id", 1L));
    record.setField("d", d == null ? LocalDate.parse("2026-10-03") : d);
    record.setField(
        "ts", ts == null ? OffsetDateTime.parse("2026-10-03T00:00:00Z") : OffsetDateTime.parse(ts));
    record.setField("region", region);
    return record;
  }
}
