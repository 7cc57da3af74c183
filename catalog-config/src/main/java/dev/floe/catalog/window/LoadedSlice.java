package dev.floe.catalog.window;

import dev.floe.catalog.slice.Slice;
import java.util.List;

/**
 * A slice with the Floe commits that loaded it on the table's current history.
 *
 * @param slice the slice, read back from its lineage label
 * @param loads the loads, newest first; never empty
 */
public record LoadedSlice(Slice slice, List<SliceLoad> loads) {

  public LoadedSlice {
    loads = List.copyOf(loads);
    if (loads.isEmpty()) {
      throw new IllegalArgumentException("Cannot describe slice " + slice + " without a load");
    }
  }

  /** The load whose content the slice holds now. */
  public SliceLoad latest() {
    return loads.get(0);
  }
}
