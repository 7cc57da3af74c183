package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MergeDetailTest {

  @Test
  void readsTheCountsOfACommittedMerge() {
    // The wording of dev.floe.flink.merge.MergeCounts.describe(), as the outcome reports it.
    MergeDetail d =
        MergeDetail.parse(
            "committed: 1000 source rows, 1000 keys: 500 inserted, 500 updated, 0 unchanged"
                + " (target as new or newer), 0 deleted; read 5 and rewrote 4 of 100 files in"
                + " scope");

    assertThat(d).isEqualTo(new MergeDetail(1000, 1000, 500, 500, 0, 0, 5, 4, 100));
  }

  @Test
  void failsLoudlyWhenTheWordingChanged() {
    assertThatThrownBy(() -> MergeDetail.parse("committed: 1000 rows"))
        .hasMessageContaining("Cannot read the merge counts from 'committed: 1000 rows'");
    assertThatThrownBy(() -> MergeDetail.parse(null)).hasMessageContaining("'null'");
  }
}
