package dev.floe.catalog.window;

import java.time.Instant;
import java.util.Objects;

/**
 * The sealing marker before and after {@link SealedThrough#advance}.
 *
 * @param before the marker before, or null when the table had none
 * @param after the marker after (equal to {@code before} when it did not move)
 */
public record SealedThroughUpdate(Instant before, Instant after) {

  /** True when the marker moved. */
  public boolean moved() {
    return !Objects.equals(before, after);
  }
}
