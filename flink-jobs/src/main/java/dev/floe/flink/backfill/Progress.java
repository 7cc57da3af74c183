package dev.floe.flink.backfill;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts a backfill's ended slices and tells the listener, one call at a time. */
final class Progress {
  private final BackfillListener listener;
  private final int total;
  private final AtomicInteger done = new AtomicInteger();
  private final Set<String> started = new HashSet<>();

  Progress(BackfillListener listener, int total) {
    this.listener = listener;
    this.total = total;
  }

  /** Tells the listener once per slice, also when a slice's shared job falls back to its own. */
  synchronized void started(PlannedSlice slice) {
    if (started.add(slice.value())) {
      listener.sliceStarted(slice);
    }
  }

  synchronized SliceOutcome finished(SliceOutcome outcome) {
    listener.sliceFinished(outcome, done.incrementAndGet(), total);
    return outcome;
  }
}
