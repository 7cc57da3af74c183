package dev.floe.catalog.maintain;

import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Reads the files a table's snapshots reference, again when some are missing: a snapshot another
 * process removes (a verify dropping its scratch branch, an expiry) loses its files right after its
 * metadata commit, so a read that began on the metadata before may not find them. Each attempt
 * reads the table's metadata afresh, which by then no longer holds that snapshot.
 */
public final class RereadOnMissingFiles {
  private static final int ATTEMPTS = 5;

  private RereadOnMissingFiles() {}

  /** {@code read} on the table refreshed before each attempt; {@code otherwise} if none works. */
  public static <T> T read(Table table, Supplier<T> read, T otherwise) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      table.refresh();
      try {
        return read.get();
      } catch (NotFoundException e) {
        // read again
      }
    }
    return otherwise;
  }
}
