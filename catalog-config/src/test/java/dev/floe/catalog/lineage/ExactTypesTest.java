package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ExactTypes.Path;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ExactTypesTest {

  private static Schema schema(org.apache.iceberg.types.Type type) {
    return new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "c", type));
  }

  @Test
  void flinkRefusesTimeAndNanosecondTimestampsAtAnyDepthIcebergsReadersCarryThem() {
    Types.StructType nestedTime =
        Types.StructType.of(Types.NestedField.optional(3, "starts", Types.TimeType.get()));
    assertThat(ExactTypes.firstInexact(schema(Types.TimeType.get()), Path.FLINK))
        .hasValueSatisfying(i -> assertThat(i.column()).isEqualTo("c"));
    assertThat(ExactTypes.firstInexact(schema(nestedTime), Path.FLINK))
        .hasValueSatisfying(i -> assertThat(i.column()).isEqualTo("c.starts"));
    assertThat(
            ExactTypes.firstInexact(
                schema(Types.ListType.ofOptional(3, Types.TimeType.get())), Path.FLINK))
        .hasValueSatisfying(i -> assertThat(i.column()).isEqualTo("c.element"));
    assertThat(
            ExactTypes.firstInexact(
                schema(Types.MapType.ofOptional(5, 6, Types.StringType.get(), nestedTime)),
                Path.FLINK))
        .hasValueSatisfying(i -> assertThat(i.column()).isEqualTo("c.value.starts"));
    assertThat(ExactTypes.isExact(Types.TimestampNanoType.withZone(), Path.FLINK)).isFalse();

    assertThat(ExactTypes.isExact(nestedTime, Path.ICEBERG)).isTrue();
    assertThat(ExactTypes.isExact(Types.TimestampNanoType.withoutZone(), Path.ICEBERG)).isTrue();
  }

  @Test
  void bothPathsCarryEveryOtherPrimitiveAndNestingOfThem() {
    for (org.apache.iceberg.types.Type type :
        List.of(
            Types.BooleanType.get(),
            Types.IntegerType.get(),
            Types.LongType.get(),
            Types.FloatType.get(),
            Types.DoubleType.get(),
            Types.DateType.get(),
            Types.TimestampType.withZone(),
            Types.TimestampType.withoutZone(),
            Types.StringType.get(),
            Types.UUIDType.get(),
            Types.FixedType.ofLength(3),
            Types.BinaryType.get(),
            Types.DecimalType.of(38, 38),
            Types.ListType.ofOptional(3, Types.UUIDType.get()),
            Types.MapType.ofOptional(3, 4, Types.StringType.get(), Types.DoubleType.get()))) {
      assertThat(ExactTypes.isExact(type, Path.FLINK)).as(type.toString()).isTrue();
      assertThat(ExactTypes.isExact(type, Path.ICEBERG)).as(type.toString()).isTrue();
    }
    assertThat(ExactTypes.isExact(Types.VariantType.get(), Path.ICEBERG)).isFalse();
    assertThat(ExactTypes.isExact(Types.UnknownType.get(), Path.FLINK)).isFalse();
  }

  @Test
  void theRefusalIsOneLineNamingTableColumnAndTypeAndExitsWithTwo() {
    assertThatThrownBy(
            () ->
                ExactTypes.require(
                    "run j", "sales.shifts", schema(Types.TimeType.get()), Path.FLINK))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run j: column c of sales.shifts has type time")
        .hasMessageNotContaining("\n")
        .satisfies(e -> assertThat(((InvalidInputException) e).exitCode()).isEqualTo(2));
  }

  @Test
  void hashingATableWithATypeWithoutEncodingNamesTheTable() {
    assertThatThrownBy(() -> new RecordHasher(schema(Types.VariantType.get()), "sales.events"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot hash the rows of sales.events: column c of sales.events has type variant,"
                + " which is not supported: Floe has no exact encoding for this type yet");
  }

  @Test
  void theCheckBeforeARewriteThroughFlinkRowsRefusesATimeEvenNested() {
    assertThatThrownBy(() -> RecordHasher.requireHashable("at", Types.TimeType.get()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot hash column at of type time: Flink holds a time of day");
    assertThatThrownBy(
            () ->
                RecordHasher.requireHashable(
                    "shift",
                    Types.StructType.of(
                        Types.NestedField.optional(3, "starts", Types.TimeType.get()))))
        .hasMessageStartingWith("Cannot hash column shift.starts of type time");
    RecordHasher.requireHashable("tags", Types.ListType.ofOptional(3, Types.StringType.get()));
  }

  @Test
  void nestedValuesHashByContentAndMapsIgnoreEntryOrder() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(
                1,
                "m",
                Types.MapType.ofOptional(2, 3, Types.StringType.get(), Types.DoubleType.get())),
            Types.NestedField.optional(
                4, "l", Types.ListType.ofOptional(5, Types.DoubleType.get())),
            Types.NestedField.optional(
                6,
                "s",
                Types.StructType.of(
                    Types.NestedField.optional(7, "a", Types.DecimalType.of(10, 2)),
                    Types.NestedField.optional(8, "b", Types.BinaryType.get()))),
            Types.NestedField.optional(9, "n", Types.TimestampNanoType.withZone()),
            Types.NestedField.optional(10, "t", Types.TimeType.get()));
    RecordHasher hasher = new RecordHasher(schema);
    Map<String, Double> ab = new LinkedHashMap<>();
    ab.put("a", 1.0);
    ab.put("b", Double.NaN);
    Map<String, Double> ba = new LinkedHashMap<>();
    ba.put("b", Double.NaN);
    ba.put("a", 1.0);

    GenericRecord one =
        row(schema, ab, List.of(-0.0, 0.0), "1.20", "2026-10-03T00:00:00.000000001Z");
    GenericRecord same =
        row(schema, ba, List.of(-0.0, 0.0), "1.20", "2026-10-03T00:00:00.000000001Z");
    GenericRecord swapped =
        row(schema, ab, List.of(0.0, -0.0), "1.20", "2026-10-03T00:00:00.000000001Z");
    GenericRecord scaled =
        row(schema, ab, List.of(-0.0, 0.0), "1.2", "2026-10-03T00:00:00.000000001Z");
    GenericRecord nanos =
        row(schema, ab, List.of(-0.0, 0.0), "1.20", "2026-10-03T00:00:00.000000002Z");

    assertThat(hasher.hash128(same)).isEqualTo(hasher.hash128(one));
    assertThat(hasher.hash128(swapped)).isNotEqualTo(hasher.hash128(one));
    assertThat(hasher.hash128(scaled)).isNotEqualTo(hasher.hash128(one));
    assertThat(hasher.hash128(nanos)).isNotEqualTo(hasher.hash128(one));
  }

  private static GenericRecord row(
      Schema schema, Map<String, Double> map, List<Double> list, String decimal, String nanos) {
    GenericRecord struct = GenericRecord.create(schema.findType("s").asStructType());
    struct.setField("a", new BigDecimal(decimal));
    struct.setField("b", ByteBuffer.wrap(new byte[] {1}));
    GenericRecord row = GenericRecord.create(schema);
    row.setField("m", map);
    row.setField("l", list);
    row.setField("s", struct);
    row.setField("n", OffsetDateTime.parse(nanos));
    row.setField("t", LocalTime.parse("08:30:00.123456"));
    return row;
  }
}
