package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.relocated.com.google.common.hash.Hashing;
import org.junit.jupiter.api.Test;

/**
 * The encoder's fast paths give exactly the hashes of the paths they replace (Guava's murmur3, a
 * decimal's BigInteger bytes): content hashes in the lineage of existing tables stay valid.
 */
class CanonicalRowEncoderTest {

  @Test
  void theRowHashIsGuavasMurmur3OfTheEncodedBytesForEveryLength() {
    Random random = new Random(128);
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    for (int length = 0; length < 300; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      encoder.reset();
      encoder.putBytes(bytes); // 1 marker + 4 length bytes + the bytes
      byte[] encoded = new byte[5 + length];
      encoded[0] = 1;
      encoded[1] = (byte) length;
      encoded[2] = (byte) (length >>> 8);
      System.arraycopy(bytes, 0, encoded, 5, length);
      byte[] guava = Hashing.murmur3_128().hashBytes(encoded).asBytes();
      ByteBuffer expected = ByteBuffer.wrap(guava).order(ByteOrder.LITTLE_ENDIAN);

      assertThat(encoder.hash128())
          .as("length %d", length)
          .containsExactly(expected.getLong(0), expected.getLong(8));
      ContentHash sum = ContentHash.empty();
      encoder.addTo(sum);
      ContentHash reference = ContentHash.empty();
      reference.add(expected.getLong(0), expected.getLong(8));
      assertThat(sum).isEqualTo(reference);
    }
  }

  @Test
  void everyNaNIsOneValueWhileNegativeZeroKeepsItsSign() {
    // Parquet's writer stores every NaN as the canonical one (as Java's equals compares them), so
    // a NaN's sign and payload are not content: a compaction into Parquet keeps the hash. The
    // sign of a zero is kept by every writer, so it is content.
    double negativeNaN = Double.longBitsToDouble(0xfff8000000000000L);
    double payloadNaN = Double.longBitsToDouble(0x7ff0000000000001L);
    float negativeNaNf = Float.intBitsToFloat(0xffc00000);

    assertThat(doubleHash(negativeNaN)).isEqualTo(doubleHash(Double.NaN));
    assertThat(doubleHash(payloadNaN)).isEqualTo(doubleHash(Double.NaN));
    assertThat(floatHash(negativeNaNf)).isEqualTo(floatHash(Float.NaN));
    assertThat(doubleHash(-0.0d)).isNotEqualTo(doubleHash(0.0d));
    assertThat(floatHash(-0.0f)).isNotEqualTo(floatHash(0.0f));
  }

  private static long[] doubleHash(double value) {
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    encoder.putDouble(value);
    return encoder.hash128();
  }

  private static long[] floatHash(float value) {
    CanonicalRowEncoder encoder = new CanonicalRowEncoder();
    encoder.putFloat(value);
    return encoder.hash128();
  }

  @Test
  void aCompactDecimalHashesAsItsBigIntegerUnscaledValueDoes() {
    List<Long> values = new ArrayList<>();
    for (int bits = 0; bits < 64; bits++) {
      long power = 1L << bits;
      values.addAll(List.of(power, power - 1, power + 1, -power, -power - 1, -power + 1));
    }
    values.addAll(List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, 12_345L, -7_000L));
    Random random = new Random(15);
    for (int i = 0; i < 10_000; i++) {
      values.add(random.nextLong() >> random.nextInt(64));
    }
    CanonicalRowEncoder fast = new CanonicalRowEncoder();
    CanonicalRowEncoder reference = new CanonicalRowEncoder();
    for (long value : values) {
      for (int scale : new int[] {0, 2, 18}) {
        fast.reset();
        fast.putLong(value); // a column before, so that offsets are not always 0
        fast.putDecimal(value, scale);
        reference.reset();
        reference.putLong(value);
        reference.putDecimal(BigInteger.valueOf(value), scale);

        assertThat(fast.hash128()).as("%d scale %d", value, scale).isEqualTo(reference.hash128());
      }
    }
  }
}
