package dev.floe.catalog.maintain;

import org.apache.iceberg.DeleteFile;

/**
 * A delete file's identity, as compaction and {@code floe maintain --plan} count delete files: its
 * location, and for a deletion vector the offset of its blob too (deletion vectors share a Puffin
 * file, one blob and one manifest entry each).
 */
public final class DeleteFileKeys {
  private DeleteFileKeys() {}

  /** {@code location}, or {@code location@offset} for a deletion vector. */
  public static String of(DeleteFile delete) {
    return delete.contentOffset() == null
        ? delete.location()
        : delete.location() + "@" + delete.contentOffset();
  }
}
