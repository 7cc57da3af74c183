package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class OutputSchemaWideningTest {
  @Test
  void aCastIsWideningOnlyWhenEveryValueFitsExactly() {
    assertThat(OutputSchema.isWidening(new IntType(), new BigIntType())).isTrue();
    assertThat(OutputSchema.isWidening(new DecimalType(10, 2), new DecimalType(12, 2))).isTrue();
    assertThat(OutputSchema.isWidening(new DecimalType(10, 2), new DecimalType(12, 4))).isTrue();
    assertThat(OutputSchema.isWidening(new FloatType(), new DoubleType())).isTrue();
    assertThat(OutputSchema.isWidening(new TimestampType(3), new TimestampType(6))).isTrue();
    assertThat(OutputSchema.isWidening(new VarCharType(5), new VarCharType(10))).isTrue();

    assertThat(OutputSchema.isWidening(new IntType(), new DecimalType(10, 0))).isTrue();
    assertThat(OutputSchema.isWidening(new BigIntType(), new DecimalType(19, 0))).isTrue();

    assertThat(OutputSchema.isWidening(new IntType(), new DecimalType(10, 2))).isFalse();
    assertThat(OutputSchema.isWidening(new BigIntType(), new DecimalType(10, 0))).isFalse();
    assertThat(OutputSchema.isWidening(new IntType(), new FloatType())).isFalse();
    assertThat(OutputSchema.isWidening(new BinaryType(8), new BinaryType(16))).isFalse();
    assertThat(OutputSchema.isWidening(new TimestampType(0), new DateType())).isFalse();
    assertThat(OutputSchema.isWidening(new TimestampType(0), new TimeType(0))).isFalse();
    assertThat(OutputSchema.isWidening(new BigIntType(), new IntType())).isFalse();
    assertThat(OutputSchema.isWidening(new DecimalType(12, 2), new DecimalType(10, 2))).isFalse();
    assertThat(OutputSchema.isWidening(new DecimalType(10, 3), new DecimalType(12, 2))).isFalse();
    assertThat(OutputSchema.isWidening(new DecimalType(10, 2), new DoubleType())).isFalse();
    assertThat(OutputSchema.isWidening(new BigIntType(), new DoubleType())).isFalse();
    assertThat(OutputSchema.isWidening(new DoubleType(), new FloatType())).isFalse();
    assertThat(OutputSchema.isWidening(new TimestampType(6), new TimestampType(3))).isFalse();
    assertThat(OutputSchema.isWidening(new VarCharType(10), new VarCharType(5))).isFalse();
  }
}
