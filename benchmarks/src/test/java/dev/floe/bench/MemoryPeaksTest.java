package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryPeaksTest {
  private static final String STATUS =
      "Name:\tjava\nVmPeak:\t 9000000 kB\nVmHWM:\t  218416 kB\nVmRSS:\t  13612 kB\nThreads:\t40\n";

  @Test
  void readsTheRssHighWaterAndTheCurrentRssInBytes() {
    assertThat(MemoryPeaks.statusBytes(STATUS, "VmHWM:")).isEqualTo(218416L * 1024);
    assertThat(MemoryPeaks.statusBytes(STATUS, "VmRSS:")).isEqualTo(13612L * 1024);
  }

  @Test
  void aMissingOrOddFieldIsAnErrorNotAZero() {
    assertThatThrownBy(() -> MemoryPeaks.statusBytes("Name:\tjava\n", "VmHWM:"))
        .hasMessageContaining("Cannot find VmHWM:");
    assertThatThrownBy(() -> MemoryPeaks.statusBytes("VmHWM:\t12 MB\n", "VmHWM:"))
        .hasMessageContaining("Cannot read VmHWM:");
  }

  @Test
  void aRunThatAllocatesRaisesTheHeapHighWaterAboveWhatItAllocated() {
    MemoryPeaks.Mark mark = MemoryPeaks.start();
    byte[][] blocks = new byte[64][];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = new byte[1 << 20];
    }

    assertThat(mark.heapPeakBytes()).isGreaterThanOrEqualTo(64L << 20);
    assertThat(blocks[63]).hasSize(1 << 20);
  }
}
