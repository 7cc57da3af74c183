package dev.floe.catalog.window;

import dev.floe.catalog.slice.Slice;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code floe late plan} found for one job's target: per loaded slice its state, late rows and
 * action, as of one instant. A pure function of the table's and its sources' metadata and files and
 * of that instant; computing it writes nothing.
 *
 * @param table the target table
 * @param sliceColumn the column the job's slices are cut on
 * @param asOf the instant windows are judged at
 * @param window the table's late-data policy as the spec writes it, or {@code none}
 * @param slices the loaded slices on that column, by start
 * @param sourceSnapshots each source consulted, with the snapshot late rows were counted up to
 *     (null when it had none or could not be loaded)
 * @param sealedThrough the table's sealing marker now, or null
 */
public record LatePlan(
    String table,
    String sliceColumn,
    Instant asOf,
    String window,
    List<LateSlice> slices,
    Map<String, Long> sourceSnapshots,
    Instant sealedThrough) {

  public LatePlan {
    slices = List.copyOf(slices);
    sourceSnapshots = java.util.Collections.unmodifiableMap(new TreeMap<>(sourceSnapshots));
  }

  /** The slices {@code floe late apply} reruns, by start. */
  public List<LateSlice> reruns() {
    return slices.stream().filter(s -> s.action().reruns()).toList();
  }

  /** The slices whose late rows are only reported. */
  public List<LateSlice> reported() {
    return slices.stream().filter(s -> s.action() == LateAction.REPORT).toList();
  }

  /**
   * The sealing marker after an apply in which the reruns of {@code failed} failed (and every other
   * rerun succeeded); never before {@link #sealedThrough()}.
   */
  public Optional<Instant> sealedThroughAfter(Collection<Slice> failed) {
    return SealedThrough.extend(sealedThrough, slices, failed);
  }

  /** Why the marker stops where {@link #sealedThroughAfter} puts it; empty at the last slice. */
  public Optional<String> sealedThroughStoppedBy(Collection<Slice> failed) {
    return SealedThrough.stoppedBy(sealedThrough, slices, failed);
  }
}
