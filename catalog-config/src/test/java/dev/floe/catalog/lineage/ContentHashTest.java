package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** ContentHash, CanonicalRowEncoder and RecordHasher: the multiset hash of rows. */
class ContentHashTest {
  private static final Schema ORDERS =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(4, "order_date", Types.DateType.get()),
          Types.NestedField.optional(5, "created_at", Types.TimestampType.withoutZone()));

  private static final Record R1 = order(1, "ann", "70.00", 3);
  private static final Record R2 = order(2, "bob", "12.50", 3);
  private static final Record R3 = order(3, null, null, 4);

  @Test
  void theSameRowsInAnotherOrderHashTheSame() {
    ContentHash forward = hash(ORDERS, R1, R2, R3);
    ContentHash backward = hash(ORDERS, R3, R2, R1);

    assertThat(forward).isEqualTo(backward);
    assertThat(forward.encode()).isEqualTo(backward.encode());
    assertThat(forward.rows()).isEqualTo(3);
  }

  @Test
  void aDuplicatedRowChangesTheHash() {
    ContentHash once = hash(ORDERS, R1, R2);
    ContentHash twice = hash(ORDERS, R1, R2, R2);

    assertThat(twice).isNotEqualTo(once);
    assertThat(bits(twice)).isNotEqualTo(bits(once));
  }

  @Test
  void rowsThatWouldCancelUnderXorStillDiffer() {
    // With XOR, {a, a} and {b, b} would both hash to zero: same count, same bits.
    ContentHash aa = hash(ORDERS, R1, R1);
    ContentHash bb = hash(ORDERS, R2, R2);

    assertThat(aa.rows()).isEqualTo(bb.rows());
    assertThat(aa).isNotEqualTo(bb);
    assertThat(bits(aa)).isNotEqualTo("0".repeat(32));
  }

  @Test
  void swappingValuesBetweenColumnsOrRowsChangesTheHash() {
    Schema pair =
        new Schema(
            Types.NestedField.optional(1, "a", Types.IntegerType.get()),
            Types.NestedField.optional(2, "b", Types.IntegerType.get()));

    assertThat(hash(pair, pairOf(pair, 1, 2))).isNotEqualTo(hash(pair, pairOf(pair, 2, 1)));
    assertThat(hash(ORDERS, order(1, "ann", "1.00", 3), order(2, "bob", "1.00", 3)))
        .isNotEqualTo(hash(ORDERS, order(1, "bob", "1.00", 3), order(2, "ann", "1.00", 3)));
  }

  @Test
  void nullEmptyStringAndZeroAllHashDifferently() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "s", Types.StringType.get()),
            Types.NestedField.optional(2, "n", Types.LongType.get()));

    List<String> hashes =
        List.of(
            hash(schema, row(schema, null, 0L)).encode(),
            hash(schema, row(schema, "", 0L)).encode(),
            hash(schema, row(schema, "0", 0L)).encode(),
            hash(schema, row(schema, "", null)).encode(),
            hash(schema, row(schema, null, null)).encode());

    assertThat(hashes).doesNotHaveDuplicates();
  }

  @Test
  void theEncoderTellsNullFromEmptyAndFromZeroWithinAType() {
    assertThat(encoded(CanonicalRowEncoder::putNull))
        .isNotEqualTo(encoded(e -> e.putString("")))
        .isNotEqualTo(encoded(e -> e.putInt(0)))
        .isNotEqualTo(encoded(e -> e.putLong(0)))
        .isNotEqualTo(encoded(e -> e.putBoolean(false)))
        .isNotEqualTo(encoded(e -> e.putDecimal(0, 2)));
    assertThat(encoded(e -> e.putString(""))).isNotEqualTo(encoded(e -> e.putString("0")));
    // Length prefixes keep ("ab", "c") apart from ("a", "bc").
    assertThat(encoded(e -> twoStrings(e, "ab", "c")))
        .isNotEqualTo(encoded(e -> twoStrings(e, "a", "bc")));
  }

  @Test
  void decimalsWithTheSameValueButAnotherScaleDiffer() {
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    encoder.putDecimal(7000, 2); // 70.00
    long[] scale2 = encoder.hash128();
    encoder.reset();
    encoder.putDecimal(700, 1); // 70.0
    long[] scale1 = encoder.hash128();

    assertThat(scale2).isNotEqualTo(scale1);
    assertThat(hash(ORDERS, order(1, "ann", "70.00", 3)))
        .isNotEqualTo(hash(ORDERS, order(1, "ann", "70.0", 3)));
  }

  @Test
  void recordHasherEncodesEachTypeCanonically() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "b", Types.BooleanType.get()),
            Types.NestedField.optional(2, "i", Types.IntegerType.get()),
            Types.NestedField.optional(3, "l", Types.LongType.get()),
            Types.NestedField.optional(4, "f", Types.FloatType.get()),
            Types.NestedField.optional(5, "d", Types.DoubleType.get()),
            Types.NestedField.optional(6, "dt", Types.DateType.get()),
            Types.NestedField.optional(7, "t", Types.TimeType.get()),
            Types.NestedField.optional(8, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(9, "tstz", Types.TimestampType.withZone()),
            Types.NestedField.optional(10, "s", Types.StringType.get()),
            Types.NestedField.optional(11, "dec", Types.DecimalType.of(20, 3)),
            Types.NestedField.optional(12, "u", Types.UUIDType.get()),
            Types.NestedField.optional(13, "fx", Types.FixedType.ofLength(2)),
            Types.NestedField.optional(14, "bin", Types.BinaryType.get()));
    UUID uuid = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    Record record =
        row(
            schema,
            true,
            -7,
            1L << 40,
            1.5f,
            -2.25d,
            LocalDate.of(1969, 12, 31),
            LocalTime.of(1, 2, 3, 4_000),
            LocalDateTime.of(2026, 10, 3, 5, 6, 7, 8_000),
            OffsetDateTime.of(2026, 10, 3, 7, 6, 7, 8_000, ZoneOffset.ofHours(2)),
            "é",
            new BigDecimal("-12345678901234567.891"),
            uuid,
            new byte[] {1, 2},
            ByteBuffer.wrap(new byte[] {9, 8, 7}));

    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    encoder.putBoolean(true);
    encoder.putInt(-7);
    encoder.putLong(1L << 40);
    encoder.putFloat(1.5f);
    encoder.putDouble(-2.25d);
    encoder.putInt(-1);
    encoder.putLong(3_723_000_004L);
    long tsMicros =
        LocalDateTime.of(2026, 10, 3, 5, 6, 7).toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
    encoder.putLong(tsMicros + 8);
    encoder.putLong(tsMicros + 8); // 07:06:07+02:00 is 05:06:07 UTC
    encoder.putBytes(new byte[] {(byte) 0xC3, (byte) 0xA9});
    encoder.putDecimal(new BigInteger("-12345678901234567891"), 3);
    encoder.putBytes(
        new byte[] {
          0x00,
          0x11,
          0x22,
          0x33,
          0x44,
          0x55,
          0x66,
          0x77,
          (byte) 0x88,
          (byte) 0x99,
          (byte) 0xaa,
          (byte) 0xbb,
          (byte) 0xcc,
          (byte) 0xdd,
          (byte) 0xee,
          (byte) 0xff
        });
    encoder.putBytes(new byte[] {1, 2});
    encoder.putBytes(new byte[] {9, 8, 7});
    ContentHash expected = ContentHash.empty();
    encoder.addTo(expected);

    assertThat(hash(schema, record)).isEqualTo(expected);
  }

  @Test
  void addToAddsTheRowsHash128() {
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    encoder.putString("x".repeat(1000)); // grows the buffer past its first size
    long[] bits = encoder.hash128();
    ContentHash viaAddTo = ContentHash.empty();
    encoder.addTo(viaAddTo);
    ContentHash viaAdd = ContentHash.empty();
    viaAdd.add(bits[0], bits[1]);

    assertThat(viaAddTo).isEqualTo(viaAdd);
  }

  @ParameterizedTest
  @ValueSource(strings = {"variant", "geometry", "unknown"})
  void refusesColumnTypesTheEncodingDoesNotCoverEarly(String typeName) {
    Type type =
        switch (typeName) {
          case "variant" -> Types.VariantType.get();
          case "geometry" -> Types.GeometryType.crs84();
          default -> Types.UnknownType.get();
        };
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "odd", type));

    assertThatThrownBy(() -> new RecordHasher(schema))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot hash column odd of type " + type);
  }

  @Test
  void encodesAndDecodesBackToTheSameHash() {
    ContentHash hash = hash(ORDERS, R1, R2, R3);

    String text = hash.encode();

    assertThat(text).matches("3:[0-9a-f]{32}");
    assertThat(ContentHash.decode(text)).isEqualTo(hash);
    assertThat(ContentHash.decode(ContentHash.empty().encode())).isEqualTo(ContentHash.empty());
    assertThat(ContentHash.empty().encode()).isEqualTo("0:" + "0".repeat(32));
  }

  @Test
  void carriesFromTheLowToTheHighHalf() {
    ContentHash hash = ContentHash.empty();
    hash.add(0, -1L); // low = 2^64 - 1
    hash.add(0, 1L); // low overflows into high

    assertThat(hash.encode()).isEqualTo("2:" + "0000000000000001" + "0000000000000000");
    assertThat(ContentHash.decode(hash.encode())).isEqualTo(hash);
  }

  @Test
  void wrapsModulo2To128() {
    ContentHash hash = ContentHash.empty();
    hash.add(-1L, -1L); // 2^128 - 1
    hash.add(0, 1L);

    assertThat(hash.encode()).isEqualTo("2:" + "0".repeat(32));
  }

  @Test
  void roundTripsHighBitsAsUnsignedHex() {
    ContentHash hash = ContentHash.empty();
    hash.add(Long.MIN_VALUE, -2L);

    assertThat(hash.encode()).isEqualTo("1:8000000000000000fffffffffffffffe");
    assertThat(ContentHash.decode(hash.encode())).isEqualTo(hash);
  }

  @Test
  void mergingPartialHashesEqualsAddingAllRows() {
    ContentHash all = hash(ORDERS, R1, R2, R3, R1);
    ContentHash left = hash(ORDERS, R1, R2);
    ContentHash right = hash(ORDERS, R3, R1);

    left.merge(right);

    assertThat(left).isEqualTo(all);
    assertThat(left.rows()).isEqualTo(4);
  }

  @Test
  void mergingCarriesLikeAdding() {
    ContentHash added = ContentHash.empty();
    added.add(5, -1L);
    added.add(7, 3L);
    ContentHash left = ContentHash.empty();
    left.add(5, -1L);
    ContentHash right = ContentHash.empty();
    right.add(7, 3L);

    left.merge(right);

    assertThat(left).isEqualTo(added);
    assertThat(left.encode()).isEqualTo("2:000000000000000d0000000000000002");
  }

  @Test
  void mergingAnEmptyHashChangesNothing() {
    ContentHash hash = hash(ORDERS, R1);
    String before = hash.encode();

    hash.merge(ContentHash.empty());

    assertThat(hash.encode()).isEqualTo(before);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "garbage",
        "3:abc",
        "3:0123456789abcdef0123456789abcde",
        "3:0123456789abcdef0123456789abcdefa",
        "x:0123456789abcdef0123456789abcdef",
        "3:0123456789abcdefg123456789abcdef",
        ":0123456789abcdef0123456789abcdef"
      })
  void refusesToDecodeGarbage(String text) {
    assertThatThrownBy(() -> ContentHash.decode(text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot read content hash");
  }

  private static ContentHash hash(Schema schema, Record... records) {
    RecordHasher hasher = new RecordHasher(schema);
    ContentHash hash = ContentHash.empty();
    for (Record record : records) {
      hasher.add(record, hash);
    }
    return hash;
  }

  private static String encoded(Consumer<CanonicalRowEncoder> puts) {
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    puts.accept(encoder);
    return Arrays.toString(encoder.hash128());
  }

  private static void twoStrings(CanonicalRowEncoder encoder, String a, String b) {
    encoder.putString(a);
    encoder.putString(b);
  }

  private static String bits(ContentHash hash) {
    return hash.encode().substring(hash.encode().indexOf(':') + 1);
  }

  private static Record order(long id, String customer, String amount, int octoberDay) {
    return row(
        ORDERS,
        id,
        customer,
        amount == null ? null : new BigDecimal(amount),
        LocalDate.of(2026, 10, octoberDay),
        LocalDateTime.of(2026, 10, octoberDay, 12, 0));
  }

  private static Record pairOf(Schema schema, int a, int b) {
    return row(schema, a, b);
  }

  private static Record row(Schema schema, Object... values) {
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }
}
