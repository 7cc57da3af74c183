package dev.floe.catalog.maintain;

/** The kinds of file an Iceberg table references, as maintenance counts them. */
public enum FileKind {
  /** {@code *.metadata.json}: the current one and those in the metadata log. */
  METADATA_JSON("metadata.json file"),
  /** {@code version-hint.text} of Hadoop-catalog tables. */
  VERSION_HINT("version hint"),
  /** A snapshot's manifest list ({@code snap-*.avro}). */
  MANIFEST_LIST("manifest list"),
  /** A manifest of data or delete files. */
  MANIFEST("manifest"),
  /** A data file. */
  DATA("data file"),
  /** A position or equality delete file, or a deletion-vector file. */
  DELETE("delete file"),
  /** A table or partition statistics file. */
  STATISTICS("statistics file");

  private final String noun;

  FileKind(String noun) {
    this.noun = noun;
  }

  /** What one file of this kind is called in output. */
  public String noun() {
    return noun;
  }
}
