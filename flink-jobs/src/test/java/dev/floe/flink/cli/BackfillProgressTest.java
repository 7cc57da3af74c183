package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.flink.backfill.BackfillPlan;
import dev.floe.flink.backfill.PlannedSlice;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackfillProgressTest {

  @Test
  void theBarShowsSlicesRowsElapsedAndAnEtaFromThePaceOfTheSlicesThatRan() {
    assertThat(BackfillProgress.bar(12, 30, 120_000, 42_000, 63_000))
        .isEqualTo("[#########...............] 12/30 slices  120000 rows  0:42 elapsed  ETA 1:03");
    assertThat(BackfillProgress.bar(0, 30, 0, 0, -1)).endsWith("ETA ?");
    assertThat(BackfillProgress.duration(3_725_000)).isEqualTo("1:02:05");
  }

  @Test
  void skippedSlicesDoNotMakeTheEtaOptimistic() {
    StringWriter err = new StringWriter();
    AtomicLong now = new AtomicLong();
    BackfillProgress progress =
        new BackfillProgress(new PrintWriter(err), BackfillProgress.Style.BAR, now::get);
    progress.planned(plan());

    // Ten slices skipped at once, then one slice that took 10 s: 9 slices left at 10 s each.
    for (int i = 0; i < 10; i++) {
      progress.sliceFinished(outcome("s" + i, SliceStatus.SKIPPED, 5), i + 1, 20);
    }
    now.set(10_000_000_000L);
    progress.sliceFinished(outcome("s10", SliceStatus.COMMITTED, 7), 11, 20);

    String last = err.toString().substring(err.toString().lastIndexOf('\r') + 1);
    assertThat(last).startsWith("[#############...........] 11/20 slices  57 rows  0:10 elapsed");
    assertThat(last).contains("ETA 1:30");
  }

  @Test
  void linesNameEachSliceItsStatusAndItsError() {
    StringWriter err = new StringWriter();
    BackfillProgress progress =
        new BackfillProgress(new PrintWriter(err), BackfillProgress.Style.LINES, () -> 0L);
    progress.planned(plan());

    progress.sliceStarted(new PlannedSlice("2026-01-02", "d=[..)", "k", false, null));
    progress.sliceFinished(
        new SliceOutcome(
            "2026-01-02", SliceStatus.FAILED, -1, null, null, 5, "Cannot x: y", 1, null),
        1,
        2);

    assertThat(err.toString())
        .contains("floe backfill: 2026-01-02 started")
        .contains("floe backfill: 2026-01-02 failed: Cannot x: y [1/2, 0:00 elapsed]");
  }

  private static BackfillPlan plan() {
    return new BackfillPlan("id", "job", "t", "overwrite", "v", List.of(), null, 1, 1);
  }

  private static SliceOutcome outcome(String value, SliceStatus status, long rows) {
    return new SliceOutcome(value, status, rows, 1L, "h", 1, null, 0, null);
  }
}
