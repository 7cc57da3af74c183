package dev.floe.catalog.window;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.LateDataSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * A table's late-data window applied to its slices: a slice is {@link WindowState#OPEN} until its
 * end plus the window, and {@link WindowState#SEALED} from that instant on. Without a policy a
 * slice is never sealed. Slice bounds are UTC wall times (a date slice ends at the next midnight
 * UTC). Pure: the instant to judge by is always a parameter, never the clock.
 */
public final class LateDataWindow {
  private final LateDataSpec policy;

  private LateDataWindow(LateDataSpec policy) {
    this.policy = policy;
  }

  /** The window of a policy. */
  public static LateDataWindow of(LateDataSpec policy) {
    return new LateDataWindow(Objects.requireNonNull(policy, "policy"));
  }

  /** No late-data policy: slices stay open forever. */
  public static LateDataWindow none() {
    return new LateDataWindow(null);
  }

  /**
   * The window a table carries in its {@code floe.late-data.*} properties.
   *
   * @param table the table
   * @param name its name, for messages
   * @throws InvalidInputException when a property cannot be read
   */
  public static LateDataWindow of(Table table, String name) {
    Optional<LateDataSpec> spec;
    try {
      spec = FloeTableProperties.lateData(table.properties());
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of(
          "Cannot read the late-data policy of %s: %s", name, e.getMessage());
    }
    return spec.map(LateDataWindow::of).orElseGet(LateDataWindow::none);
  }

  /** The policy, or empty when the table has none. */
  public Optional<LateDataSpec> policy() {
    return Optional.ofNullable(policy);
  }

  /** The instant a slice seals (its end plus the window), or empty without a policy. */
  public Optional<Instant> sealsAt(Slice slice) {
    if (policy == null) {
      return Optional.empty();
    }
    return Optional.of(slice.end().toInstant(ZoneOffset.UTC).plus(policy.window()));
  }

  /** {@link WindowState#SEALED} exactly when {@code sealsAt(slice) <= asOf}. */
  public WindowState state(Slice slice, Instant asOf) {
    Objects.requireNonNull(asOf, "asOf");
    return sealsAt(slice).filter(at -> !at.isAfter(asOf)).isPresent()
        ? WindowState.SEALED
        : WindowState.OPEN;
  }

  /**
   * True when late rows of a slice in this state should still be folded in by a rerun: the window
   * is open, or the policy reopens sealed slices ({@code after_window: reopen}).
   */
  public boolean acceptsLateRows(WindowState state) {
    return state == WindowState.OPEN
        || (policy != null && policy.afterWindow() == LateDataSpec.AfterWindow.REOPEN);
  }

  /** The policy as the table spec writes it, e.g. {@code P3D (after_window: report)}, or none. */
  public String describe() {
    if (policy == null) {
      return "none";
    }
    Duration window = policy.window();
    boolean wholeDays = !window.isZero() && window.equals(Duration.ofDays(window.toDays()));
    return (wholeDays ? "P" + window.toDays() + "D" : window.toString())
        + " (after_window: "
        + policy.afterWindow().name().toLowerCase(Locale.ROOT)
        + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
