package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitStatsTest {

  /**
   * Commit k took k ms and wrote k bytes of metadata.json, 10 of manifest list, 100 of manifests.
   */
  private static List<CommitRecord> commits(int n) {
    List<CommitRecord> list = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      list.add(new CommitRecord(k, k, k, 10, 100, k, "lineage"));
    }
    return list;
  }

  @Test
  void theMedianAtACommitIsOverTheWindowEndingThere() {
    List<CommitRecord> c = commits(1000);

    assertThat(CommitStats.medianAt(c, 10, 10)).isEqualTo(5.5); // commits 1..10
    assertThat(CommitStats.medianAt(c, 1000, 10)).isEqualTo(995.5); // commits 991..1000
    assertThat(CommitStats.medianAt(c, 3, 10)).isEqualTo(2.0); // only 1..3 exist
  }

  @Test
  void aCheckpointBeyondTheRunIsRefused() {
    assertThatThrownBy(() -> CommitStats.medianAt(commits(5), 10, 10))
        .hasMessageContaining("commit 10: the run has 5");
  }

  @Test
  void metadataBytesAreSummedPerBlockOfCommits() {
    List<CommitRecord> c = commits(150);

    assertThat(CommitStats.bytesOfBlock(c, 1, 100)).containsExactly(5050L, 1000L, 10000L);
    // The last, partial block: commits 101..150.
    assertThat(CommitStats.bytesOfBlock(c, 2, 100)).containsExactly(6275L, 500L, 5000L);
    assertThat(c.get(0).metadataBytes()).isEqualTo(111);
  }
}
