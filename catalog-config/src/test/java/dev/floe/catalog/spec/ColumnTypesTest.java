package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ColumnTypesTest {

  private static final Map<String, Type> EVERY_TYPE =
      Map.ofEntries(
          Map.entry("boolean", Types.BooleanType.get()),
          Map.entry("int", Types.IntegerType.get()),
          Map.entry("long", Types.LongType.get()),
          Map.entry("float", Types.FloatType.get()),
          Map.entry("double", Types.DoubleType.get()),
          Map.entry("date", Types.DateType.get()),
          Map.entry("time", Types.TimeType.get()),
          Map.entry("timestamp", Types.TimestampType.withoutZone()),
          Map.entry("timestamptz", Types.TimestampType.withZone()),
          Map.entry("string", Types.StringType.get()),
          Map.entry("uuid", Types.UUIDType.get()),
          Map.entry("binary", Types.BinaryType.get()),
          Map.entry("fixed(16)", Types.FixedType.ofLength(16)),
          Map.entry("decimal(10,2)", Types.DecimalType.of(10, 2)));

  @Test
  void parsesEveryDeclarableTypeAndPrintsItBackTheSameWay() {
    EVERY_TYPE.forEach(
        (name, type) -> {
          assertThat(ColumnTypes.parse(name)).as(name).contains((Type.PrimitiveType) type);
          assertThat(ColumnTypes.format(type)).isEqualTo(name);
        });
  }

  @Test
  void acceptsSpacesInsideParametersAndAnyCase() {
    assertThat(ColumnTypes.parse("decimal( 38 , 0 )")).contains(Types.DecimalType.of(38, 0));
    assertThat(ColumnTypes.parse("Fixed(4)")).contains(Types.FixedType.ofLength(4));
    assertThat(ColumnTypes.parse("LONG")).contains(Types.LongType.get());
  }

  @Test
  void rejectsUnknownNamesAndOutOfRangeParameters() {
    assertThat(ColumnTypes.parse("bigint")).isEmpty();
    assertThat(ColumnTypes.parse("varchar(10)")).isEmpty();
    assertThat(ColumnTypes.parse("decimal(39,2)")).isEmpty();
    assertThat(ColumnTypes.parse("decimal(4,5)")).isEmpty();
    assertThat(ColumnTypes.parse("decimal(0,0)")).isEmpty();
    assertThat(ColumnTypes.parse("fixed(0)")).isEmpty();
    assertThat(ColumnTypes.parse("fixed[16]")).isEmpty();
  }
}
