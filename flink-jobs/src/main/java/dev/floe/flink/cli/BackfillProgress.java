package dev.floe.flink.cli;

import dev.floe.flink.backfill.BackfillListener;
import dev.floe.flink.backfill.BackfillPlan;
import dev.floe.flink.backfill.PlannedSlice;
import dev.floe.flink.backfill.SampleCheck;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * A backfill's progress on stderr: a bar redrawn in place on a terminal, one plain line per slice
 * otherwise (logs and CI), nothing with {@code --progress none}. stdout stays for the summary and
 * {@code --json}.
 */
final class BackfillProgress implements BackfillListener {
  enum Style {
    BAR,
    LINES,
    NONE
  }

  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final Style style;
  private final LongSupplier nanoTime;
  private long startedNanos;
  private long rows;
  private int ran;
  private int skipped;
  private boolean barDrawn;

  BackfillProgress(PrintWriter err, Style style, LongSupplier nanoTime) {
    this.err = err;
    this.style = style;
    this.nanoTime = nanoTime;
  }

  @Override
  public void planned(BackfillPlan plan) {
    startedNanos = nanoTime.getAsLong();
  }

  @Override
  public void sliceStarted(PlannedSlice slice) {
    if (style == Style.LINES) {
      err.printf("floe backfill: %s started%s%n", slice.value(), slice.sample() ? " (sample)" : "");
      err.flush();
    }
  }

  @Override
  public void sampleChecked(SampleCheck check) {
    if (style == Style.NONE) {
      return;
    }
    clearBar();
    err.printf("floe backfill: sample %s: %s%n", check.slice(), check.detail());
    err.flush();
  }

  @Override
  public void sliceFinished(SliceOutcome outcome, int done, int total) {
    if (outcome.status() == SliceStatus.SKIPPED) {
      skipped++;
    } else if (outcome.status() != SliceStatus.NOT_RUN) {
      ran++;
    }
    rows += Math.max(0, outcome.rows());
    long elapsed = (nanoTime.getAsLong() - startedNanos) / 1_000_000;
    switch (style) {
      case BAR -> {
        err.print("\r" + bar(done, total, rows, elapsed, eta(done, total, elapsed)) + "\u001b[K");
        barDrawn = true;
        if (done == total) {
          err.println();
          barDrawn = false;
        }
      }
      case LINES ->
          err.printf(
              "floe backfill: %s %s%s [%d/%d, %s elapsed]%n",
              outcome.value(),
              outcome.status().text(),
              outcome.failed()
                  ? ": " + outcome.error()
                  : outcome.rows() >= 0 ? ", " + outcome.rows() + " rows" : "",
              done,
              total,
              duration(elapsed));
      case NONE -> {}
    }
    err.flush();
  }

  /** Milliseconds still to go, from the pace of the slices that ran; -1 before any ran. */
  private long eta(int done, int total, long elapsedMillis) {
    int runDone = done - skipped;
    if (ran == 0 || runDone <= 0) {
      return -1;
    }
    return elapsedMillis / runDone * (total - done);
  }

  private void clearBar() {
    if (barDrawn) {
      err.print("\r\u001b[K");
      barDrawn = false;
    }
  }

  /** E.g. {@code [##########..............] 12/30 slices 120000 rows 0:42 elapsed ETA 1:03}. */
  static String bar(int done, int total, long rows, long elapsedMillis, long etaMillis) {
    int filled = total == 0 ? BAR_WIDTH : (int) ((long) done * BAR_WIDTH / total);
    return "["
        + "#".repeat(filled)
        + ".".repeat(BAR_WIDTH - filled)
        + "] "
        + done
        + "/"
        + total
        + " slices  "
        + rows
        + " rows  "
        + duration(elapsedMillis)
        + " elapsed  ETA "
        + (etaMillis < 0 ? "?" : duration(etaMillis));
  }

  /** {@code m:ss}, or {@code h:mm:ss} from an hour on. */
  static String duration(long millis) {
    long seconds = millis / 1000;
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    return h > 0 ? String.format("%d:%02d:%02d", h, m, s) : String.format("%d:%02d", m, s);
  }
}
