package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The batches of key hashes the writers send to the finders. */
class KeyHashBatchTest {

  @Test
  void aFullBatchIsTakenWithItsCheckBucketAndHashesAndTheNextStartsEmpty() {
    KeyHashBatch batch = new KeyHashBatch(3, 1, 2);

    assertThat(batch.add(-1L)).isFalse();
    assertThat(batch.add(Long.MIN_VALUE)).isTrue();
    byte[] full = batch.take();
    assertThat(batch.isEmpty()).isTrue();
    batch.add(7L);
    byte[] rest = batch.take();

    assertThat(KeyHashBatch.checkIndex(full)).isEqualTo(3);
    assertThat(KeyHashBatch.bucket(full)).isEqualTo(1);
    assertThat(hashes(full)).containsExactly(-1L, Long.MIN_VALUE);
    assertThat(KeyHashBatch.checkIndex(rest)).isEqualTo(3);
    assertThat(KeyHashBatch.bucket(rest)).isEqualTo(1);
    assertThat(hashes(rest)).containsExactly(7L);
  }

  @Test
  void aTakenBatchIsNotChangedByLaterHashes() {
    KeyHashBatch batch = new KeyHashBatch(0, 0, 1);
    batch.add(1L);
    byte[] first = batch.take();
    batch.add(3L);

    assertThat(hashes(first)).containsExactly(1L);
  }

  @Test
  void theBucketOfAHashIsTheHashModuloTheBucketsAsUnsigned() {
    assertThat(KeyHashBatch.bucketOf(-1L, 3)).isEqualTo((int) Long.remainderUnsigned(-1L, 3));
    assertThat(KeyHashBatch.bucketOf(-1L, 3)).isZero(); // 2^64 - 1 = 3 * 6148914691236517205
    assertThat(KeyHashBatch.bucketOf(5L, 3)).isEqualTo(2);
  }

  @Test
  void refusesABatchWithoutRoom() {
    assertThatThrownBy(() -> new KeyHashBatch(0, 0, 0))
        .hasMessageContaining("Cannot batch key hashes: capacity 0");
  }

  private static List<Long> hashes(byte[] batch) {
    List<Long> hashes = new ArrayList<>();
    for (int i = 0; i < KeyHashBatch.size(batch); i++) {
      hashes.add(KeyHashBatch.hash(batch, i));
    }
    return hashes;
  }
}
