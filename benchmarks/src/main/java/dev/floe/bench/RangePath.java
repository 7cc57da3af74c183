package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import java.util.List;

/**
 * One way of loading every slice of a staged range. Each run gets a fresh catalog: {@link #bind}
 * points the path at it before {@link #execute()} is timed.
 */
abstract class RangePath implements WritePath {
  private final String name;
  protected CatalogConfig catalog;
  protected BackfillDays days;

  RangePath(String name) {
    this.name = name;
  }

  /** The catalog and staged range the next run loads. */
  final void bind(CatalogConfig catalog, BackfillDays days) {
    this.catalog = catalog;
    this.days = days;
  }

  /** Whether the others are compared with this path. */
  abstract boolean baseline();

  /** Whether this path loads the range's rows staged as one day, in one slice. */
  boolean oneSlice() {
    return false;
  }

  /** Wall time of each slice's own job in the last run, as the run reported it. */
  abstract List<Double> sliceJobSeconds();

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final long rows() {
    return days.totalRows();
  }

  final void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("Wrong result of " + name + ": " + what);
    }
  }
}
