package dev.floe.flink.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The committer's collection of the finders' candidate hashes, per unique check. */
class DuplicateKeysTest {

  @Test
  void sortedGivesEachCandidateOnceInUnsignedOrderPerCheck() {
    DuplicateKeys keys = new DuplicateKeys();
    keys.add(0, new long[] {5L, -1L, 5L});
    keys.add(2, 7L);
    keys.add(0, new long[] {0L, -1L, Long.MIN_VALUE});
    keys.add(0, new long[0]);

    assertThat(keys.checks()).containsExactly(0, 2);
    assertThat(keys.sorted(0)).containsExactly(0L, 5L, Long.MIN_VALUE, -1L);
    assertThat(keys.sorted(2)).containsExactly(7L);
    assertThat(keys.sorted(1)).isEmpty();
  }
}
