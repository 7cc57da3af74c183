package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Resolves slices against real tables of the embedded catalog (one catalog for the class). */
class SliceResolverTest {
  private static final Schema ORDERS =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(4, "order_date", Types.DateType.get()),
          Types.NestedField.optional(5, "status", Types.StringType.get()));
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withoutZone()));
  private static final Schema EVENTS_TZ =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withZone()));

  @TempDir static Path home;
  private static Catalog catalog;
  private static Table orders;
  private static Table byCustomer;
  private static Table monthly;
  private static Table bucketed;
  private static Table hourly;
  private static Table daily;
  private static Table dailyTz;

  @BeforeAll
  static void createTables() {
    catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    orders = create("sales.orders", ORDERS, spec(ORDERS).identity("order_date").build());
    byCustomer = create("sales.by_customer", ORDERS, spec(ORDERS).identity("customer_id").build());
    monthly = create("sales.monthly", ORDERS, spec(ORDERS).month("order_date").build());
    bucketed = create("sales.bucketed", ORDERS, spec(ORDERS).bucket("order_date", 4).build());
    hourly = create("events.hourly", EVENTS, spec(EVENTS).hour("ts").build());
    daily = create("events.daily", EVENTS, spec(EVENTS).day("ts").build());
    dailyTz = create("events.daily_tz", EVENTS_TZ, spec(EVENTS_TZ).day("ts").build());
  }

  @AfterAll
  static void closeCatalog() {
    Catalogs.close(catalog);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1582-10-04", "1582-10-05", "1582-10-10", "1582-10-14"})
  void refusesADaySliceThatStartsOrEndsInTheDaysTheJulianCalendarSkipped(String day) {
    assertThatThrownBy(() -> SliceResolver.resolve("sales.orders", orders, "order_date", day))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot use --slice " + day + " on sales.orders: its ")
        .hasMessageContaining("falls in 1582-10-05 to 1582-10-14")
        .hasMessageContaining("as a DATE literal");
  }

  @Test
  void theDaysAroundTheSkippedOnesTheirMonthAndTimestamptzHoursInThemResolve() {
    for (String day : List.of("1582-10-03", "1582-10-15", "1582-10")) {
      assertThat(SliceResolver.resolve("sales.orders", orders, "order_date", day).value())
          .isEqualTo(day);
    }
    assertThatThrownBy(() -> SliceResolver.resolve("events.hourly", hourly, "ts", "1582-10-04T23"))
        .hasMessageContaining("its end 1582-10-05 falls in")
        .hasMessageContaining("as a TIMESTAMP literal");
    // A timestamptz bound is bound as epoch milliseconds, not as a literal.
    assertThat(SliceResolver.resolve("events.daily_tz", dailyTz, "ts", "1582-10-10").value())
        .isEqualTo("1582-10-10");
  }

  @Test
  void cutsADaySliceOnAnIdentityDatePartitionAsAHalfOpenDay() {
    Slice slice = SliceResolver.resolve("sales.orders", orders, "order_date", "2026-10-03");

    assertThat(slice.column()).isEqualTo("order_date");
    assertThat(slice.kind()).isEqualTo(Slice.ColumnKind.DATE);
    assertThat(slice.unit()).isEqualTo(SliceUnit.DAY);
    assertThat(slice.start()).isEqualTo(LocalDateTime.of(2026, 10, 3, 0, 0));
    assertThat(slice.end()).isEqualTo(LocalDateTime.of(2026, 10, 4, 0, 0));
    assertThat(slice.startInternal()).isEqualTo(LocalDate.of(2026, 10, 3).toEpochDay());
    assertThat(slice.endInternal()).isEqualTo(LocalDate.of(2026, 10, 4).toEpochDay());
    assertThat(slice.value()).isEqualTo("2026-10-03");
    assertThat(slice.label()).isEqualTo("order_date=[2026-10-03,2026-10-04)");

    Evaluator filter = new Evaluator(ORDERS.asStruct(), slice.toExpression());
    assertThat(filter.eval(order(LocalDate.of(2026, 10, 2)))).isFalse();
    assertThat(filter.eval(order(LocalDate.of(2026, 10, 3)))).isTrue();
    assertThat(filter.eval(order(LocalDate.of(2026, 10, 4)))).isFalse();
  }

  @Test
  void refusesAnHourSliceOnADayPartitionedTableNamingTheSpec() {
    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.orders", orders, "order_date", "2026-10-03T05"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("an hour slice does not cover whole partitions")
        .hasMessageContaining("[identity(order_date)]")
        .hasMessageContaining("give a day");
  }

  @Test
  void refusesAnHourSliceOnADayTransformOfATimestamp() {
    assertThatThrownBy(() -> SliceResolver.resolve("events.daily", daily, "ts", "2026-10-03T05"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("[day(ts)]");
  }

  @Test
  void acceptsAMonthSliceOnADayTableBecauseItCoversWholeDays() {
    Slice slice = SliceResolver.resolve("sales.orders", orders, "order_date", "2026-02");

    assertThat(slice.unit()).isEqualTo(SliceUnit.MONTH);
    assertThat(slice.start()).isEqualTo(LocalDateTime.of(2026, 2, 1, 0, 0));
    assertThat(slice.end()).isEqualTo(LocalDateTime.of(2026, 3, 1, 0, 0));
    assertThat(slice.value()).isEqualTo("2026-02");
    assertThat(slice.label()).isEqualTo("order_date=[2026-02-01,2026-03-01)");
  }

  @Test
  void acceptsAYearSliceOnAMonthTableButRefusesADay() {
    Slice year = SliceResolver.resolve("sales.monthly", monthly, "order_date", "2026");

    assertThat(year.start()).isEqualTo(LocalDateTime.of(2026, 1, 1, 0, 0));
    assertThat(year.end()).isEqualTo(LocalDateTime.of(2027, 1, 1, 0, 0));
    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.monthly", monthly, "order_date", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("[month(order_date)]");
  }

  @Test
  void acceptsADaySliceOnAnHourPartitionedTable() {
    Slice slice = SliceResolver.resolve("events.hourly", hourly, "ts", "2026-10-03");

    assertThat(slice.kind()).isEqualTo(Slice.ColumnKind.TIMESTAMP);
    assertThat(slice.unit()).isEqualTo(SliceUnit.DAY);
    assertThat(slice.startInternal()).isEqualTo(micros(LocalDateTime.of(2026, 10, 3, 0, 0)));
    assertThat(slice.endInternal()).isEqualTo(micros(LocalDateTime.of(2026, 10, 4, 0, 0)));
    assertThat(slice.label()).isEqualTo("ts=[2026-10-03,2026-10-04)");
  }

  @Test
  void aVoidFieldAFormatV1TableKeepsOfADroppedTransformSplitsNothing() {
    // Format v1 cannot remove a partition field: day(ts) stays as void(ts) beside month(ts).
    Table v1 =
        catalog.createTable(
            TableIdentifier.parse("events.v1_daily"),
            EVENTS,
            spec(EVENTS).day("ts").bucket("id", 4).build(),
            Map.of("format-version", "1"));
    v1.updateSpec()
        .removeField("ts_day")
        .addField(org.apache.iceberg.expressions.Expressions.month("ts"))
        .commit();
    assertThat(v1.spec().fields().get(0).transform().isVoid()).isTrue();

    Slice month = SliceResolver.resolve("events.v1_daily", v1, "ts", "2026-10");

    assertThat(month.unit()).isEqualTo(SliceUnit.MONTH);
    assertThat(month.label()).isEqualTo("ts=[2026-10-01,2026-11-01)");
    assertThatThrownBy(() -> SliceResolver.resolve("events.v1_daily", v1, "ts", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("month(ts)");

    v1.updateSpec().removeField("ts_month").commit();
    assertThatThrownBy(() -> SliceResolver.resolve("events.v1_daily", v1, "ts", "2026-10"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("by 'ts': it is not a partition source column");
  }

  @Test
  void cutsAnHourSliceOnAnHourPartitionedTable() {
    Slice slice = SliceResolver.resolve("events.hourly", hourly, "ts", "2026-10-03T23");

    assertThat(slice.unit()).isEqualTo(SliceUnit.HOUR);
    assertThat(slice.start()).isEqualTo(LocalDateTime.of(2026, 10, 3, 23, 0));
    assertThat(slice.end()).isEqualTo(LocalDateTime.of(2026, 10, 4, 0, 0));
    assertThat(slice.value()).isEqualTo("2026-10-03T23");
    assertThat(slice.label()).isEqualTo("ts=[2026-10-03T23:00,2026-10-04T00:00)");
    assertThat(SliceResolver.resolve("events.hourly", hourly, "ts", "2026-10-03 23:00:00"))
        .isEqualTo(slice);

    Evaluator filter = new Evaluator(EVENTS.asStruct(), slice.toExpression());
    assertThat(filter.eval(event(LocalDateTime.of(2026, 10, 3, 22, 59, 59)))).isFalse();
    assertThat(filter.eval(event(LocalDateTime.of(2026, 10, 3, 23, 0)))).isTrue();
    assertThat(filter.eval(event(LocalDateTime.of(2026, 10, 3, 23, 59, 59, 999_999_000)))).isTrue();
    assertThat(filter.eval(event(LocalDateTime.of(2026, 10, 4, 0, 0)))).isFalse();
  }

  @Test
  void cutsATimestamptzSliceInUtc() {
    Slice slice = SliceResolver.resolve("events.daily_tz", dailyTz, "ts", "2026-10-03");

    assertThat(slice.kind()).isEqualTo(Slice.ColumnKind.TIMESTAMPTZ);
    assertThat(slice.startInternal()).isEqualTo(micros(LocalDateTime.of(2026, 10, 3, 0, 0)));
    assertThat(slice.endInternal()).isEqualTo(micros(LocalDateTime.of(2026, 10, 4, 0, 0)));

    Evaluator filter = new Evaluator(EVENTS_TZ.asStruct(), slice.toExpression());
    ZoneOffset paris = ZoneOffset.ofHours(2);
    // 01:30 in Paris is still the 2nd in UTC; 01:30 on the 4th in Paris is the 3rd in UTC.
    assertThat(filter.eval(eventTz(OffsetDateTime.of(2026, 10, 3, 1, 30, 0, 0, paris)))).isFalse();
    assertThat(filter.eval(eventTz(OffsetDateTime.of(2026, 10, 4, 1, 30, 0, 0, paris)))).isTrue();
    assertThat(filter.eval(eventTz(OffsetDateTime.of(2026, 10, 4, 0, 0, 0, 0, ZoneOffset.UTC))))
        .isFalse();
  }

  @Test
  void refusesAColumnThatIsNotAPartitionSourceNamingTheSpec() {
    assertThatThrownBy(
            () ->
                SliceResolver.resolve("sales.by_customer", byCustomer, "order_date", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'order_date': it is not a partition source column")
        .hasMessageContaining("[identity(customer_id)]");
  }

  @Test
  void refusesAnUnknownColumnListingTheColumns() {
    assertThatThrownBy(() -> SliceResolver.resolve("sales.orders", orders, "ship_date", "2026"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'ship_date': no such column")
        .hasMessageContaining("order_id, customer_id, amount, order_date, status");
  }

  @Test
  void refusesANonTemporalColumn() {
    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.by_customer", byCustomer, "customer_id", "2026"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("its type is long")
        .hasMessageContaining("must be a date or timestamp");
  }

  @Test
  void refusesABucketTransformOnTheSliceColumn() {
    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.bucketed", bucketed, "order_date", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("partition transform bucket[4] does not cut time into slices")
        .hasMessageContaining("[bucket[4](order_date)]");
  }

  @Test
  void refusesATruncateTransformOnAPartitionColumn() {
    Table truncated = create("sales.truncated", ORDERS, spec(ORDERS).truncate("status", 2).build());

    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.truncated", truncated, "order_date", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("[truncate[2](status)]");
    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.truncated", truncated, "status", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("its type is string");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-13-01", "2026-02-30", "03/10/2026", "2026-10-03T25", "2026-1-3"})
  void refusesAMalformedSliceValue(String value) {
    assertThatThrownBy(() -> SliceResolver.resolve("sales.orders", orders, "order_date", value))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot parse --slice '" + value + "'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"9999-12-31", "9999-12-31T23", "9999-12", "9999", "9999-01-01", "0000-01-01"})
  void refusesASliceOutsideTheSupportedYearsWhoseBoundsNoEngineCanWrite(String value) {
    assertThatThrownBy(() -> SliceResolver.parse(value, "order_date"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot parse --slice '%s': year %s is outside the supported years 0001 to 9998",
            value, value.substring(0, 4));
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999-01-01", "+10000-01-01", "2026-10-03; DROP", "２０２６-10-03"})
  void refusesAValueThatIsNotOneOfTheFourForms(String value) {
    assertThatThrownBy(() -> SliceResolver.parse(value, "order_date"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot parse --slice '" + value + "': expected yyyy-MM-dd");
  }

  @Test
  void acceptsTheFirstAndLastSupportedSlices() {
    assertThat(SliceResolver.parse("0001-01-01", "order_date").start())
        .isEqualTo(LocalDateTime.of(1, 1, 1, 0, 0));
    SliceResolver.ParsedValue last = SliceResolver.parse("9998-12-31T23", "order_ts");
    assertThat(last.unit().next(last.start())).isEqualTo(LocalDateTime.of(9999, 1, 1, 0, 0));
    assertThat(SliceResolver.parse("9998", "order_date").unit()).isEqualTo(SliceUnit.YEAR);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   "})
  void refusesAnEmptySliceValueAsMissing(String value) {
    assertThatThrownBy(() -> SliceResolver.resolve("sales.orders", orders, "order_date", value))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing --slice for slice column order_date");
  }

  @Test
  void describesAnUnpartitionedSpec() {
    assertThat(SliceResolver.describe(PartitionSpec.unpartitioned()))
        .isEqualTo("[] (unpartitioned)");
  }

  private static Table create(String name, Schema schema, PartitionSpec spec) {
    TableIdentifier identifier = TableIdentifier.parse(name);
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(identifier.namespace())) {
      namespaces.createNamespace(identifier.namespace());
    }
    return catalog.createTable(identifier, schema, spec, Map.of());
  }

  private static PartitionSpec.Builder spec(Schema schema) {
    return PartitionSpec.builderFor(schema);
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
  }

  private static InternalRecordWrapper order(LocalDate date) {
    GenericRecord record = GenericRecord.create(ORDERS);
    record.setField("order_id", 1L);
    record.setField("order_date", date);
    return new InternalRecordWrapper(ORDERS.asStruct()).wrap(record);
  }

  private static InternalRecordWrapper event(LocalDateTime ts) {
    GenericRecord record = GenericRecord.create(EVENTS);
    record.setField("id", 1L);
    record.setField("ts", ts);
    return new InternalRecordWrapper(EVENTS.asStruct()).wrap(record);
  }

  private static InternalRecordWrapper eventTz(OffsetDateTime ts) {
    GenericRecord record = GenericRecord.create(EVENTS_TZ);
    record.setField("id", 1L);
    record.setField("ts", ts);
    return new InternalRecordWrapper(EVENTS_TZ.asStruct()).wrap(record);
  }

  @Test
  void aDaySliceIsRefusedWhileFilesOfAnOlderMonthSpecStillHoldData() {
    Table evolved = create("sales.evolved", ORDERS, spec(ORDERS).month("order_date").build());
    TableRows.append(
        evolved,
        TableRows.row(
            evolved, Map.of("order_id", 1L, "order_date", LocalDate.parse("2026-10-03"))));
    evolved
        .updateSpec()
        .removeField(org.apache.iceberg.expressions.Expressions.month("order_date"))
        .addField("order_date")
        .commit();
    evolved.refresh();

    assertThatThrownBy(
            () -> SliceResolver.resolve("sales.evolved", evolved, "order_date", "2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("older partition spec [month(order_date)] still hold data of it")
        .hasMessageContaining("current spec [identity(order_date)]")
        // Compaction keeps older-spec files: the message names what rewrites them.
        .hasMessageContaining(
            "first: load the covering slice once with a job of mode overwrite (`floe run"
                + " --slice 2026-10`, with --force-commit when its result is unchanged)");
    assertThat(SliceResolver.resolve("sales.evolved", evolved, "order_date", "2026-10").unit())
        .isEqualTo(SliceUnit.MONTH);
    // Days of other months hold no file of the older spec: they load as days.
    assertThat(SliceResolver.resolve("sales.evolved", evolved, "order_date", "2026-11-02").unit())
        .isEqualTo(SliceUnit.DAY);
    assertThat(SliceResolver.resolve("sales.evolved", evolved, "order_date", "2026-09-30").unit())
        .isEqualTo(SliceUnit.DAY);
  }
}
