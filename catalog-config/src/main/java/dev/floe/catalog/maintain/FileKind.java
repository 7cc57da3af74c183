package dev.floe.catalog.maintain;

/** The kinds of file an Iceberg table references, as maintenance counts them. */
public enum FileKind {
  /** {@code *.metadata.json}: the current one and those in the metadata log. */
  METADATA_JSON,
  /** {@code version-hint.text} of Hadoop-catalog tables. */
  VERSION_HINT,
  /** A snapshot's manifest list ({@code snap-*.avro}). */
  MANIFEST_LIST,
  /** A manifest of data or delete files. */
  MANIFEST,
  /** A data file. */
  DATA,
  /** A position or equality delete file, or a deletion-vector file. */
  DELETE,
  /** A table or partition statistics file. */
  STATISTICS
}
